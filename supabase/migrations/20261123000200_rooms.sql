-- Rooms, their token gates and their memberships.
--
-- Every room's row and gate are readable by everyone (a gated room shows who may enter); a room's
-- member list is content: readable by everyone for a public room, by its members for a gated one.
-- Only the owner changes the gate or roles, or deletes the room; the owner and moderators edit the
-- room and remove members. People join and leave public rooms themselves; a gated room's
-- memberships are inserted only by the server (the join-room function, after reading a qualifying
-- balance on chain).

create extension if not exists pg_trgm with schema extensions;

create table public.rooms (
  id uuid primary key default gen_random_uuid(),
  slug text not null,
  name text not null,
  description text not null default '',
  cover_path text,
  owner_id uuid not null references public.profiles (id) on delete cascade,
  visibility text not null default 'public',
  member_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint rooms_slug_key unique (slug),
  constraint rooms_slug_format check (slug ~ '^[a-z0-9]([a-z0-9-]{1,46})[a-z0-9]$'),
  constraint rooms_name_length check (char_length(btrim(name)) between 1 and 80 and char_length(name) <= 80),
  constraint rooms_description_length check (char_length(description) <= 500),
  constraint rooms_visibility check (visibility in ('public', 'gated')),
  constraint rooms_cover_path_in_own_folder check (cover_path is null or cover_path like id::text || '/_%'),
  constraint rooms_member_count_not_negative check (member_count >= 0)
);

comment on table public.rooms is 'A community''s room: public, or gated to holders of a token (see room_gates).';
comment on constraint rooms_slug_key on public.rooms is 'That address is taken';
comment on constraint rooms_slug_format on public.rooms is 'Room addresses use 3–48 lowercase letters, digits or -, not starting or ending with -';
comment on constraint rooms_name_length on public.rooms is 'Room names are 1–80 characters';
comment on constraint rooms_description_length on public.rooms is 'Descriptions are up to 500 characters';

create index rooms_owner_id_idx on public.rooms (owner_id);
-- The directory searches names by substring (ilike '%term%'): a trigram index keeps it fast.
create index rooms_name_trgm_idx on public.rooms using gin (name extensions.gin_trgm_ops);
-- The directory lists newest first, paginated by (created_at, id).
create index rooms_created_at_id_idx on public.rooms (created_at desc, id desc);

-- Chain ids a gate may use: Ethereum, Optimism, Polygon, Base, Arbitrum One, and the local chain
-- of development and tests. Amounts and token ids are uint256 values kept as decimal text so no
-- client rounds them through a float.
create table public.room_gates (
  room_id uuid primary key references public.rooms (id) on delete cascade,
  chain_id integer not null,
  contract_address text not null,
  standard text not null,
  token_id text,
  min_balance text not null default '1',
  updated_at timestamptz not null default now(),
  constraint room_gates_chain_supported check (chain_id in (1, 10, 137, 8453, 42161, 31337)),
  constraint room_gates_contract_address_format check (contract_address ~ '^0x[0-9a-f]{40}$'),
  constraint room_gates_standard check (standard in ('erc20', 'erc721', 'erc1155')),
  constraint room_gates_token_id_format check (token_id is null or token_id ~ '^(0|[1-9][0-9]{0,77})$'),
  constraint room_gates_token_id_for_erc1155 check ((standard = 'erc1155') = (token_id is not null)),
  constraint room_gates_min_balance_positive check (min_balance ~ '^[1-9][0-9]{0,77}$')
);

comment on table public.room_gates is 'The token a gated room requires: at least min_balance (smallest units) of the contract on chain_id.';
comment on constraint room_gates_chain_supported on public.room_gates is 'That chain is not supported';
comment on constraint room_gates_contract_address_format on public.room_gates is 'Enter the token contract''s address (0x and 40 hex digits)';
comment on constraint room_gates_token_id_for_erc1155 on public.room_gates is 'An ERC-1155 gate needs a token id (and other standards take none)';
comment on constraint room_gates_min_balance_positive on public.room_gates is 'The minimum balance is a whole number of at least 1';

create table public.memberships (
  room_id uuid not null references public.rooms (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role text not null default 'member',
  joined_at timestamptz not null default now(),
  verified_wallet text,
  verified_at timestamptz,
  constraint memberships_pkey primary key (room_id, user_id),
  constraint memberships_role check (role in ('owner', 'moderator', 'member')),
  constraint memberships_verified_wallet_format check (verified_wallet is null or verified_wallet ~ '^0x[0-9a-f]{40}$')
);

comment on table public.memberships is 'Who belongs to a room and with which role; gated rooms'' rows come from the join-room function.';

create index memberships_user_id_idx on public.memberships (user_id);
create unique index memberships_one_owner_per_room on public.memberships (room_id) where role = 'owner';

-- ---------------------------------------------------------------------------------------------
-- Helpers for policies. SECURITY DEFINER so a policy on memberships can ask about memberships
-- without recursing into its own policies; each answers for the calling user only.
-- ---------------------------------------------------------------------------------------------
create function private.room_role(target_room uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.memberships m
  where m.room_id = target_room and m.user_id = (select auth.uid());
$$;

create function private.can_read_room_content(target_room uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.rooms r
    where r.id = target_room
      and (r.visibility = 'public'
           or exists (select 1 from public.memberships m
                      where m.room_id = r.id and m.user_id = (select auth.uid())))
  );
$$;

-- The rooms the caller belongs to: a policy asks once per statement (`room_id in (select …)`),
-- not once per row as it would with can_read_room_content(room_id).
create function private.my_room_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.room_id from public.memberships m where m.user_id = (select auth.uid());
$$;

revoke all on function private.my_room_ids() from public;
grant execute on function private.my_room_ids() to anon, authenticated, service_role;
revoke all on function private.room_role(uuid) from public;
revoke all on function private.can_read_room_content(uuid) from public;
grant execute on function private.room_role(uuid) to anon, authenticated, service_role;
grant execute on function private.can_read_room_content(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Privileges (what a role may attempt) and policies (which rows)
-- ---------------------------------------------------------------------------------------------
alter table public.rooms enable row level security;
alter table public.room_gates enable row level security;
alter table public.memberships enable row level security;

revoke all on public.rooms, public.room_gates, public.memberships from anon, authenticated;
grant select on public.rooms, public.room_gates, public.memberships to anon, authenticated;
grant insert (slug, name, description, owner_id, visibility) on public.rooms to authenticated;
grant update (slug, name, description, cover_path, visibility) on public.rooms to authenticated;
grant delete on public.rooms to authenticated;
grant insert, update, delete on public.room_gates to authenticated;
grant insert (room_id, user_id) on public.memberships to authenticated;
grant update (role) on public.memberships to authenticated;
grant delete on public.memberships to authenticated;
grant select, insert, update, delete on public.rooms, public.room_gates, public.memberships to service_role;

create policy "Rooms are listed for everyone"
  on public.rooms for select
  to anon, authenticated
  using (true);

create policy "Signed-in users create rooms they own"
  on public.rooms for insert
  to authenticated
  with check ((select auth.uid()) = owner_id);

create policy "Owner and moderators edit the room"
  on public.rooms for update
  to authenticated
  using ((select private.room_role(id)) in ('owner', 'moderator'))
  with check ((select private.room_role(id)) in ('owner', 'moderator'));

create policy "Only the owner deletes the room"
  on public.rooms for delete
  to authenticated
  using ((select auth.uid()) = owner_id);

create policy "Gates are readable by everyone"
  on public.room_gates for select
  to anon, authenticated
  using (true);

create policy "Only the owner sets the gate"
  on public.room_gates for insert
  to authenticated
  with check ((select private.room_role(room_id)) = 'owner');

create policy "Only the owner changes the gate"
  on public.room_gates for update
  to authenticated
  using ((select private.room_role(room_id)) = 'owner')
  with check ((select private.room_role(room_id)) = 'owner');

create policy "Only the owner removes the gate"
  on public.room_gates for delete
  to authenticated
  using ((select private.room_role(room_id)) = 'owner');

-- Same rule as private.can_read_room_content (own row, a public room, or a room the caller belongs
-- to), written so the caller's rooms are read once per statement and a public room is one primary
-- key probe per row: a member listing a gated room's members pays almost nothing for RLS.
create policy "Members are listed to those who may read the room"
  on public.memberships for select
  to anon, authenticated
  using (
    user_id = (select auth.uid())
    or room_id in (select private.my_room_ids())
    or exists (select 1 from public.rooms r where r.id = memberships.room_id and r.visibility = 'public')
  );

create policy "Anyone signed in joins a public room"
  on public.memberships for insert
  to authenticated
  with check (
    user_id = (select auth.uid())
    and role = 'member'
    and verified_wallet is null
    and verified_at is null
    and exists (select 1 from public.rooms r where r.id = room_id and r.visibility = 'public')
  );

create policy "Only the owner changes roles, never the owner's own"
  on public.memberships for update
  to authenticated
  using (role <> 'owner' and (select private.room_role(room_id)) = 'owner')
  with check (role in ('moderator', 'member') and (select private.room_role(room_id)) = 'owner');

create policy "Members leave; moderators remove members; the owner removes anyone but themself"
  on public.memberships for delete
  to authenticated
  using (
    role <> 'owner'
    and (
      user_id = (select auth.uid())
      or (role = 'member' and (select private.room_role(room_id)) = 'moderator')
      or (select private.room_role(room_id)) = 'owner'
    )
  );

-- ---------------------------------------------------------------------------------------------
-- Invariants
-- ---------------------------------------------------------------------------------------------
-- A join or leave changes member_count only: that is not an edit of the room.
create trigger rooms_touch_updated_at
  before update on public.rooms
  for each row when (old.member_count is not distinct from new.member_count)
  execute function private.touch_updated_at();

create trigger room_gates_touch_updated_at
  before update on public.room_gates
  for each row execute function private.touch_updated_at();

-- The owner is a member with role owner from the moment the room exists.
create function private.add_room_owner_membership()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.memberships (room_id, user_id, role) values (new.id, new.owner_id, 'owner');
  return new;
end;
$$;

revoke all on function private.add_room_owner_membership() from public, anon, authenticated;

create trigger rooms_add_owner_membership
  after insert on public.rooms
  for each row execute function private.add_room_owner_membership();

-- Only the owner changes the room's address or whether it is gated; a moderator edits its name,
-- description and cover. Nobody changes who owns it. Server code (no user in the claims) may.
create function private.guard_room_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.owner_id is distinct from old.owner_id and (select auth.uid()) is not null then
    raise exception 'A room''s owner cannot be changed' using errcode = '42501';
  end if;
  if (new.visibility is distinct from old.visibility or new.slug is distinct from old.slug)
     and (select auth.uid()) is not null
     and (select auth.uid()) is distinct from old.owner_id then
    raise exception 'Only the owner changes the room''s address or who may enter it' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger rooms_guard_update
  before update on public.rooms
  for each row execute function private.guard_room_update();

-- A gated room has exactly one gate and a public room none, checked at commit so a room and its
-- gate can be written one after the other in one transaction (see create_room, set_room_gate).
create function private.check_room_gate(target uuid)
returns void
language plpgsql
set search_path = ''
as $$
declare
  room_visibility text;
  has_gate boolean;
begin
  select r.visibility into room_visibility from public.rooms r where r.id = target;
  if room_visibility is null then
    return; -- the room was deleted; its gate went with it
  end if;
  has_gate := exists (select 1 from public.room_gates g where g.room_id = target);
  if room_visibility = 'gated' and not has_gate then
    raise exception 'A gated room needs a gate' using errcode = '23514', constraint = 'rooms_gated_has_gate';
  elsif room_visibility = 'public' and has_gate then
    raise exception 'A public room has no gate' using errcode = '23514', constraint = 'rooms_public_has_no_gate';
  end if;
end;
$$;

-- One trigger function per table, so each reads only columns its table has. SECURITY DEFINER:
-- they run at commit under whichever role wrote, and must see every row.
create function private.check_room_gate_of_room()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_room_gate(new.id);
  return null;
end;
$$;

create function private.check_room_gate_of_gate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.check_room_gate(old.room_id);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.check_room_gate(new.room_id);
  end if;
  return null;
end;
$$;

revoke all on function private.check_room_gate(uuid) from public, anon, authenticated;
revoke all on function private.check_room_gate_of_room() from public, anon, authenticated;
revoke all on function private.check_room_gate_of_gate() from public, anon, authenticated;

create constraint trigger rooms_gate_consistency
  after insert or update of visibility on public.rooms
  deferrable initially deferred
  for each row execute function private.check_room_gate_of_room();

create constraint trigger room_gates_consistency
  after insert or delete or update of room_id on public.room_gates
  deferrable initially deferred
  for each row execute function private.check_room_gate_of_gate();

-- The owner stays a member with role owner for as long as the room exists: no policy lets a user
-- remove or demote that row, and this holds server code to it too. Checked at commit, so deleting
-- the room (or the owner's account, which deletes the room) takes the row with it.
create function private.check_room_keeps_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.rooms r
             where r.id = old.room_id
               and not exists (select 1 from public.memberships m
                               where m.room_id = r.id and m.user_id = r.owner_id and m.role = 'owner')) then
    raise exception 'A room''s owner stays its member' using errcode = '23514', constraint = 'memberships_owner_kept';
  end if;
  return null;
end;
$$;

revoke all on function private.check_room_keeps_owner() from public, anon, authenticated;

create constraint trigger memberships_owner_kept
  after delete or update of role, user_id on public.memberships
  deferrable initially deferred
  for each row when (old.role = 'owner')
  execute function private.check_room_keeps_owner();

-- The directory shows member counts for every room, gated ones included, without reading
-- memberships: keep the count on the room.
create function private.count_room_members()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.rooms set member_count = member_count + 1 where id = new.room_id;
  elsif tg_op = 'DELETE' then
    update public.rooms set member_count = greatest(member_count - 1, 0) where id = old.room_id;
  end if;
  return null;
end;
$$;

revoke all on function private.count_room_members() from public, anon, authenticated;

create trigger memberships_count_members
  after insert or delete on public.memberships
  for each row execute function private.count_room_members();

-- ---------------------------------------------------------------------------------------------
-- Writing a room and its gate together (one request, one transaction, the caller's policies)
-- ---------------------------------------------------------------------------------------------
-- A gate given as JSON: {chain_id, contract_address, standard, token_id, min_balance}; JSON null
-- means no gate. The address is stored lowercase; min_balance defaults to 1.
create function public.create_room(
  slug text,
  name text,
  description text default '',
  gate jsonb default null
)
returns public.rooms
language plpgsql
security invoker
set search_path = ''
as $$
declare
  given_gate jsonb := nullif(create_room.gate, 'null'::jsonb);
  created public.rooms;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to create a room' using errcode = '42501';
  end if;
  if given_gate is not null and jsonb_typeof(given_gate) <> 'object' then
    raise exception 'A gate is an object: chain_id, contract_address, standard, token_id, min_balance' using errcode = '22023';
  end if;

  insert into public.rooms (slug, name, description, owner_id, visibility)
  values (create_room.slug, create_room.name, coalesce(create_room.description, ''), (select auth.uid()),
          case when given_gate is null then 'public' else 'gated' end)
  returning * into created;

  if given_gate is not null then
    insert into public.room_gates (room_id, chain_id, contract_address, standard, token_id, min_balance)
    values (created.id, (given_gate ->> 'chain_id')::integer, lower(given_gate ->> 'contract_address'),
            given_gate ->> 'standard', given_gate ->> 'token_id', coalesce(given_gate ->> 'min_balance', '1'));
  end if;

  return created;
end;
$$;

comment on function public.create_room(text, text, text, jsonb) is 'Creates a room owned by the caller, with its gate when one is given ({chain_id, contract_address, standard, token_id, min_balance}).';

-- Sets (gate object) or removes (null) a room's gate, switching its visibility to match.
create function public.set_room_gate(room_id uuid, gate jsonb)
returns public.room_gates
language plpgsql
security invoker
set search_path = ''
as $$
declare
  given_gate jsonb := nullif(set_room_gate.gate, 'null'::jsonb);
  saved public.room_gates;
begin
  if (select private.room_role(set_room_gate.room_id)) is distinct from 'owner' then
    raise exception 'Only the owner changes who may enter the room' using errcode = '42501';
  end if;
  if given_gate is not null and jsonb_typeof(given_gate) <> 'object' then
    raise exception 'A gate is an object: chain_id, contract_address, standard, token_id, min_balance' using errcode = '22023';
  end if;

  if given_gate is null then
    delete from public.room_gates g where g.room_id = set_room_gate.room_id;
    update public.rooms r set visibility = 'public' where r.id = set_room_gate.room_id and r.visibility <> 'public';
    return null;
  end if;

  insert into public.room_gates as g (room_id, chain_id, contract_address, standard, token_id, min_balance)
  values (set_room_gate.room_id, (given_gate ->> 'chain_id')::integer, lower(given_gate ->> 'contract_address'),
          given_gate ->> 'standard', given_gate ->> 'token_id', coalesce(given_gate ->> 'min_balance', '1'))
  on conflict on constraint room_gates_pkey do update
    set chain_id = excluded.chain_id, contract_address = excluded.contract_address, standard = excluded.standard,
        token_id = excluded.token_id, min_balance = excluded.min_balance
  returning * into saved;
  update public.rooms r set visibility = 'gated' where r.id = set_room_gate.room_id and r.visibility <> 'gated';
  return saved;
end;
$$;

comment on function public.set_room_gate(uuid, jsonb) is 'Owner only: sets the room''s gate (making it gated) or, given null, removes it (making it public).';

revoke all on function public.create_room(text, text, text, jsonb) from public, anon;
revoke all on function public.set_room_gate(uuid, jsonb) from public, anon;
grant execute on function public.create_room(text, text, text, jsonb) to authenticated, service_role;
grant execute on function public.set_room_gate(uuid, jsonb) to authenticated, service_role;
