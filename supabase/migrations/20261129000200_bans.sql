-- Bans: the owner or a moderator bans someone from a room — for a reason, until a time or for good.
--
-- A ban ends the person's membership at once and keeps them out: a public room refuses their
-- membership insert, and a gated room refuses them through join-room, whichever wallet they use. A
-- ban also holds against the wallets the banned account had linked when it was banned, or links while
-- banned (private.banned_wallets): moving such a wallet to a second account does not let that account
-- in either. A ban whose expires_at has passed no longer counts (time comparisons; nothing to run).
--
-- Live access ends with the membership: the room's access epoch moves on (a gated room's membership
-- ending moves it already; for a public room ban_member moves it, since the session channel is for
-- members only), so sockets on the old topics hear nothing more and the banned person's rejoin is
-- refused by the channel policies (a public room's own channel still admits them as a visitor). Their
-- presence rows in the room go too.
--
-- Rows are written only by ban_member and unban_member (security definer, logged in
-- public.moderation_log); the banned person reads their own ban, the room's owner and moderators
-- read the room's bans.

create table public.bans (
  room_id uuid not null references public.rooms (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  banned_by uuid references public.profiles (id) on delete set null,
  reason text not null default '',
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  primary key (room_id, user_id),
  constraint bans_reason_length check (char_length(reason) <= 500),
  constraint bans_ends_after_start check (expires_at is null or expires_at > created_at)
);

comment on table public.bans is 'Who is banned from a room, by whom, why and until when (expires_at null: for good). One row per room and person; an expired row no longer counts.';
comment on constraint bans_reason_length on public.bans is 'A ban''s reason is at most 500 characters';
comment on constraint bans_ends_after_start on public.bans is 'A ban ends after it starts';

create index bans_user_id_idx on public.bans (user_id);
create index bans_banned_by_idx on public.bans (banned_by);

alter table public.bans enable row level security;

create policy "People read their own bans; the owner and moderators read the room's" on public.bans
  for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.room_role(bans.room_id)) in ('owner', 'moderator')
  );

revoke all on public.bans from anon, authenticated, service_role;
grant select on public.bans to authenticated, service_role;

-- The wallets a ban holds against: those the banned account had linked when banned, and those it
-- links while banned. Read only by the database.
create table private.banned_wallets (
  room_id uuid not null,
  user_id uuid not null,
  address text not null,
  primary key (room_id, user_id, address),
  foreign key (room_id, user_id) references public.bans (room_id, user_id) on delete cascade
);

create index banned_wallets_room_address_idx on private.banned_wallets (room_id, address);

comment on table private.banned_wallets is 'Wallets linked to a banned account (when banned, or while banned): none of them admits anyone to the room while the ban lasts.';

alter table private.banned_wallets enable row level security;
create policy "No API role reads or writes banned wallets" on private.banned_wallets
  to anon, authenticated, service_role using (false) with check (false);
revoke all on table private.banned_wallets from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Who is banned
-- ---------------------------------------------------------------------------------------------
create function private.active_ban(target_room uuid, person uuid)
returns public.bans
language sql
stable
security definer
set search_path = ''
as $$
  select b.* from public.bans b
  where b.room_id = target_room and b.user_id = person and (b.expires_at is null or b.expires_at > now());
$$;

comment on function private.active_ban(uuid, uuid) is 'The person''s ban from the room while it lasts; null when none.';
revoke all on function private.active_ban(uuid, uuid) from public, anon, authenticated;

-- An ISO 8601 UTC timestamp, for the DETAIL of a refusal (the app shows it in the reader's time zone).
create function private.iso_time(moment timestamptz)
returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(moment at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
$$;

-- The same moment in words, when no time zone is known: "27 Nov 2026, 21:40 UTC".
create function private.time_words(moment timestamptz)
returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(moment at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"');
$$;

revoke all on function private.iso_time(timestamptz) from public;
revoke all on function private.time_words(timestamptz) from public;
grant execute on function private.iso_time(timestamptz) to anon, authenticated, service_role;
grant execute on function private.time_words(timestamptz) to anon, authenticated, service_role;

-- Refuses a membership of a banned person, or one admitted by a wallet a ban holds against.
-- DETAIL carries the ban's end (ISO 8601, UTC) or 'permanent'.
create function private.refuse_banned_membership()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ban public.bans := private.active_ban(new.room_id, new.user_id);
begin
  if ban.user_id is not null then
    if ban.expires_at is null then
      raise exception 'You were banned from this room' using errcode = '42501', detail = 'permanent';
    end if;
    raise exception 'You were banned from this room until %', private.time_words(ban.expires_at)
      using errcode = '42501', detail = private.iso_time(ban.expires_at);
  end if;
  if new.verified_wallet is not null and exists (
    select 1
    from private.banned_wallets w
    join public.bans b on b.room_id = w.room_id and b.user_id = w.user_id
    where w.room_id = new.room_id and w.address = lower(new.verified_wallet)
      and (b.expires_at is null or b.expires_at > now())
  ) then
    raise exception 'This wallet was linked to an account banned from this room, so it can''t let anyone in'
      using errcode = '42501', detail = 'wallet';
  end if;
  return new;
end;
$$;

revoke all on function private.refuse_banned_membership() from public, anon, authenticated;

create trigger memberships_refuse_banned
  before insert or update of user_id, verified_wallet on public.memberships
  for each row execute function private.refuse_banned_membership();

-- A wallet linked to a banned account joins the wallets its bans hold against.
create function private.ban_wallets_of_banned_accounts()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.banned_wallets (room_id, user_id, address)
  select b.room_id, b.user_id, new.address
  from public.bans b
  where b.user_id = new.user_id and (b.expires_at is null or b.expires_at > now())
  on conflict do nothing;
  return null;
end;
$$;

revoke all on function private.ban_wallets_of_banned_accounts() from public, anon, authenticated;

create trigger wallets_follow_bans
  after insert or update of user_id on public.wallets
  for each row execute function private.ban_wallets_of_banned_accounts();

-- ---------------------------------------------------------------------------------------------
-- Who may act on whom
-- ---------------------------------------------------------------------------------------------
-- The caller may moderate the target in the room: the caller is its owner or a moderator (at aal2
-- when their account has a second factor), the target is someone else, never the owner, and a
-- moderator only when the caller is the owner. `verb` is the action in words ("ban", "time out").
create function private.check_moderation_target(target_room uuid, target_user uuid, verb text)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  caller_role text := private.room_role(target_room);
  target_role text;
begin
  if caller is null then
    raise exception 'Sign in to moderate a room' using errcode = '42501';
  end if;
  if caller_role is null or caller_role not in ('owner', 'moderator') then
    raise exception 'Only the room''s owner and moderators can % people', verb using errcode = '42501';
  end if;
  if target_user is null or not exists (select 1 from public.profiles p where p.id = target_user) then
    raise exception 'That person doesn''t have an account here' using errcode = '22023';
  end if;
  if target_user = caller then
    raise exception 'You can''t % yourself', verb using errcode = '22023';
  end if;
  select m.role into target_role from public.memberships m where m.room_id = target_room and m.user_id = target_user;
  if target_role = 'owner' then
    raise exception 'Nobody can % the room''s owner', verb using errcode = '42501';
  end if;
  if target_role = 'moderator' and caller_role <> 'owner' then
    raise exception 'Only the owner can % a moderator', verb using errcode = '42501';
  end if;
  if not (select private.second_factor_satisfied()) then
    raise exception 'Enter the code from your authenticator app first, then % them', verb using errcode = '42501';
  end if;
end;
$$;

comment on function private.check_moderation_target(uuid, uuid, text) is 'Raises unless the caller may moderate the target in the room: owner or moderator (a second factor at aal2), not themselves, never the owner, a moderator only by the owner.';
revoke all on function private.check_moderation_target(uuid, uuid, text) from public, anon;
grant execute on function private.check_moderation_target(uuid, uuid, text) to authenticated;

-- The caller is the room's owner or a moderator (at aal2 when their account has a second factor).
create function private.check_room_moderator(target_room uuid, what text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller_role text := private.room_role(target_room);
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to moderate a room' using errcode = '42501';
  end if;
  if caller_role is null or caller_role not in ('owner', 'moderator') then
    raise exception 'Only the room''s owner and moderators can %', what using errcode = '42501';
  end if;
  if not (select private.second_factor_satisfied()) then
    raise exception 'Enter the code from your authenticator app first, then %', what using errcode = '42501';
  end if;
  return caller_role;
end;
$$;

comment on function private.check_room_moderator(uuid, text) is 'Raises unless the caller is the room''s owner or a moderator (at aal2 with a second factor); answers their role.';
revoke all on function private.check_room_moderator(uuid, text) from public, anon;
grant execute on function private.check_room_moderator(uuid, text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Ban and unban
-- ---------------------------------------------------------------------------------------------
create function public.ban_member(room_id uuid, user_id uuid, reason text default '', expires_at timestamptz default null)
returns public.bans
language plpgsql
security definer
set search_path = ''
as $$
declare
  given_reason text := coalesce(btrim(ban_member.reason), '');
  saved public.bans;
  target_room public.rooms;
begin
  select * into target_room from public.rooms r where r.id = ban_member.room_id;
  if not found then
    raise exception 'This room doesn''t exist any more' using errcode = '22023';
  end if;
  perform private.check_moderation_target(ban_member.room_id, ban_member.user_id, 'ban');
  if char_length(given_reason) > 500 then
    raise exception 'Keep the reason under 500 characters' using errcode = '22023', constraint = 'bans_reason_length';
  end if;
  if ban_member.expires_at is not null and ban_member.expires_at <= now() then
    raise exception 'A ban ends in the future — or leave the end empty to ban for good' using errcode = '22023';
  end if;

  insert into public.bans as b (room_id, user_id, banned_by, reason, created_at, expires_at)
  values (ban_member.room_id, ban_member.user_id, (select auth.uid()), given_reason, now(), ban_member.expires_at)
  on conflict on constraint bans_pkey do update
    set banned_by = excluded.banned_by, reason = excluded.reason, created_at = excluded.created_at, expires_at = excluded.expires_at
  returning * into saved;

  -- The wallets the ban holds against: every one linked now, and the one that admitted them.
  insert into private.banned_wallets (room_id, user_id, address)
  select ban_member.room_id, ban_member.user_id, w.address from public.wallets w where w.user_id = ban_member.user_id
  union
  select ban_member.room_id, ban_member.user_id, lower(m.verified_wallet)
  from public.memberships m
  where m.room_id = ban_member.room_id and m.user_id = ban_member.user_id and m.verified_wallet is not null
  on conflict do nothing;

  -- The membership ends now (logged as the ban, not as a removal); a gated room's epoch moves on
  -- with it, a public room's here (its session channel is for members only).
  perform set_config('cuepoint.moderation_action', 'ban', true);
  delete from public.memberships m where m.room_id = ban_member.room_id and m.user_id = ban_member.user_id;
  perform set_config('cuepoint.moderation_action', '', true);
  if target_room.visibility = 'public' then
    update public.rooms r set access_epoch = r.access_epoch + 1 where r.id = ban_member.room_id;
  end if;
  delete from public.presence p where p.room_id = ban_member.room_id and p.user_id = ban_member.user_id;

  perform private.log_moderation(ban_member.room_id, 'ban', ban_member.user_id, null, null,
    given_reason || case when ban_member.expires_at is null then '' else ' (until ' || private.iso_time(ban_member.expires_at) || ')' end);
  return saved;
end;
$$;

comment on function public.ban_member(uuid, uuid, text, timestamptz) is 'Owner and moderators: bans the person from the room (for good, or until expires_at), ending their membership and live access at once; logged as ''ban''. A moderator cannot ban the owner or another moderator; nobody bans themselves.';

create function public.unban_member(room_id uuid, user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_room_moderator(unban_member.room_id, 'lift a ban');
  delete from public.bans b
    where b.room_id = unban_member.room_id and b.user_id = unban_member.user_id
      and (b.expires_at is null or b.expires_at > now());
  if not found then
    raise exception 'That person isn''t banned from this room' using errcode = '22023';
  end if;
  perform private.log_moderation(unban_member.room_id, 'unban', unban_member.user_id);
end;
$$;

comment on function public.unban_member(uuid, uuid) is 'Owner and moderators: lifts the person''s ban from the room (they may join again); logged as ''unban''.';

revoke all on function public.ban_member(uuid, uuid, text, timestamptz) from public, anon;
revoke all on function public.unban_member(uuid, uuid) from public, anon;
grant execute on function public.ban_member(uuid, uuid, text, timestamptz) to authenticated;
grant execute on function public.unban_member(uuid, uuid) to authenticated;

-- For join-room (service role): whether the person is banned from the room, until when, and which of
-- their currently linked wallets a ban holds against (those admit nobody).
create function public.join_ban_check(room_id uuid, user_id uuid)
returns table (banned boolean, banned_until timestamptz, reason text, barred_wallets text[])
language sql
stable
security definer
set search_path = ''
as $$
  select
    b.user_id is not null,
    b.expires_at,
    b.reason,
    coalesce((
      select array_agg(w.address order by w.address)
      from public.wallets w
      where w.user_id = join_ban_check.user_id
        and exists (
          select 1
          from private.banned_wallets bw
          join public.bans ob on ob.room_id = bw.room_id and ob.user_id = bw.user_id
          where bw.room_id = join_ban_check.room_id and bw.address = w.address
            and (ob.expires_at is null or ob.expires_at > now())
        )
    ), '{}')
  from (select 1) one
  left join public.bans b
    on b.room_id = join_ban_check.room_id and b.user_id = join_ban_check.user_id
   and (b.expires_at is null or b.expires_at > now());
$$;

comment on function public.join_ban_check(uuid, uuid) is 'Service role (join-room): whether the person is banned from the room and until when, and which of their linked wallets a ban holds against.';
revoke all on function public.join_ban_check(uuid, uuid) from public, anon, authenticated;
grant execute on function public.join_ban_check(uuid, uuid) to service_role;
