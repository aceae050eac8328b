-- Wallets a person has proven they own (by an EIP-4361 signature checked in the link-wallet
-- function, or by signing in with Ethereum), with their ENS name and avatar cached here.
-- The owner reads and removes their own; only the server (service_role) inserts or changes rows.
-- Nonces for linking are the server's alone.

create table public.wallets (
  address text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  ens_name text,
  ens_avatar text,
  ens_checked_at timestamptz,
  verified_at timestamptz not null default now(),
  constraint wallets_address_format check (address ~ '^0x[0-9a-f]{40}$'),
  constraint wallets_ens_name_length check (ens_name is null or char_length(ens_name) between 3 and 255),
  constraint wallets_ens_avatar_length check (ens_avatar is null or char_length(ens_avatar) <= 2048)
);

comment on table public.wallets is 'Wallets linked to an account; inserted by the link-wallet function after a valid signature.';
comment on constraint wallets_pkey on public.wallets is 'That wallet is already linked to another account';

create index wallets_user_id_idx on public.wallets (user_id);

alter table public.wallets enable row level security;

revoke all on public.wallets from anon, authenticated;
grant select, delete on public.wallets to authenticated;
grant select, insert, update, delete on public.wallets to service_role;

create policy "Users read their own wallets"
  on public.wallets for select
  to authenticated
  using ((select auth.uid()) = user_id);

create policy "Users unlink their own wallets"
  on public.wallets for delete
  to authenticated
  using ((select auth.uid()) = user_id);

-- At most 5 wallets per account, whoever inserts. The per-account lock makes two concurrent
-- inserts for one account count one after the other.
create function private.enforce_wallet_limit()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('wallets:' || new.user_id::text, 0));
  if (select count(*) from public.wallets where user_id = new.user_id and address <> new.address) >= 5 then
    raise exception 'An account links at most 5 wallets'
      using errcode = 'check_violation', constraint = 'wallets_per_account_limit';
  end if;
  return new;
end;
$$;

create trigger wallets_per_account_limit
  before insert or update of user_id on public.wallets
  for each row execute function private.enforce_wallet_limit();

-- Single-use nonces for the link-wallet function: valid 10 minutes, bound to the user they were
-- issued to. No grants to anon/authenticated and a restrictive policy denying them any row:
-- only service_role (which bypasses RLS) reads or writes them.
create table public.wallet_nonces (
  nonce text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '10 minutes',
  used_at timestamptz,
  constraint wallet_nonces_format check (nonce ~ '^[A-Za-z0-9]{16,64}$')
);

create index wallet_nonces_user_id_idx on public.wallet_nonces (user_id);

alter table public.wallet_nonces enable row level security;

revoke all on public.wallet_nonces from anon, authenticated;
grant select, insert, update, delete on public.wallet_nonces to service_role;

create policy "Nonces are the server's alone"
  on public.wallet_nonces as restrictive for all
  to anon, authenticated
  using (false)
  with check (false);

-- /u/[username] shows a profile's wallets by name: only address, ENS name and avatar, for one
-- profile, to anyone. The table itself stays readable by its owner only.
create function public.profile_wallets(profile_id uuid)
returns table (address text, ens_name text, ens_avatar text)
language sql
stable
security definer
set search_path = ''
as $$
  select w.address, w.ens_name, w.ens_avatar
  from public.wallets w
  where w.user_id = profile_id
  order by w.verified_at, w.address;
$$;

revoke all on function public.profile_wallets(uuid) from public;
grant execute on function public.profile_wallets(uuid) to anon, authenticated, service_role;

-- A wallet used to sign in with Ethereum was proven by that sign-in: it becomes a linked wallet
-- of the account. Skipped when another account already has it or this one is at its limit.
create function private.link_web3_identity_wallet()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_address text := lower(coalesce(new.identity_data -> 'custom_claims' ->> 'address', substring(new.provider_id from '0x[0-9a-fA-F]{40}$'), ''));
begin
  if new.provider <> 'web3' or found_address !~ '^0x[0-9a-f]{40}$' then
    return new;
  end if;
  begin
    insert into public.wallets (address, user_id, verified_at)
    values (found_address, new.user_id, coalesce(new.created_at, now()))
    on conflict (address) do nothing;
  exception when check_violation then
    null; -- at the limit: the sign-in still succeeds, the wallet is just not listed
  end;
  return new;
end;
$$;

revoke all on function private.link_web3_identity_wallet() from public, anon, authenticated;

create trigger on_web3_identity_created
  after insert on auth.identities
  for each row execute function private.link_web3_identity_wallet();

-- Wallets that signed in before this migration.
insert into public.wallets (address, user_id, verified_at)
select distinct on (lower(coalesce(i.identity_data -> 'custom_claims' ->> 'address', substring(i.provider_id from '0x[0-9a-fA-F]{40}$'))))
       lower(coalesce(i.identity_data -> 'custom_claims' ->> 'address', substring(i.provider_id from '0x[0-9a-fA-F]{40}$'))),
       i.user_id,
       coalesce(i.created_at, now())
from auth.identities i
where i.provider = 'web3'
  and lower(coalesce(i.identity_data -> 'custom_claims' ->> 'address', substring(i.provider_id from '0x[0-9a-fA-F]{40}$'))) ~ '^0x[0-9a-f]{40}$'
order by 1, i.created_at
on conflict (address) do nothing;
