-- Two-factor recovery codes: ten single-use codes, made when an authenticator is set up (and again
-- on request, with a fresh code from it), for the day the authenticator is lost.
--
-- Stored as hashes only, one row per code, in a table no API role may read or write: the server
-- sends SHA-256 of "<user id>:<code>" (lib/auth/recovery-codes.ts). A fast hash is enough because
-- the codes are not chosen by people: each is 16 random base32 characters (80 bits), so a copy of
-- this table cannot be searched for them, and the user id in each hash means one guess tests one
-- account. The plain codes never reach the database (nor its logs).
--
-- A code belongs to the authenticator it was made for (factor_id). When that authenticator goes —
-- removed with a code from it, or by a recovery — factor_id becomes null and the account's codes are
-- void: a new authenticator gets a new set, and an old code never works again.
--
-- What a code does (lib/auth/recovery.ts): Supabase Auth cannot raise a session to aal2 without a
-- factor, so a valid code, redeemed here by the signed-in (aal1) person, lets the server remove the
-- account's authenticators with Auth's admin API. The session is then no longer held below aal2;
-- two-factor is off until the person sets it up again, which /account tells them.

create table private.recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  factor_id uuid references auth.mfa_factors (id) on delete set null,
  code_hash text not null constraint recovery_codes_hash_shape check (code_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default clock_timestamp(),
  used_at timestamptz,
  constraint recovery_codes_one_per_hash unique (user_id, code_hash)
);

create index recovery_codes_factor_id_idx on private.recovery_codes (factor_id);

comment on table private.recovery_codes is
  'Two-factor recovery codes as SHA-256 of "<user id>:<code>", one row per code; void once used (used_at) or once their authenticator is gone (factor_id null). Only the functions below read or write it.';

alter table private.recovery_codes enable row level security;
-- No policies: no API role reads or writes a row, whatever it is granted.
revoke all on table private.recovery_codes from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Wrong codes are limited like every other per-account action (20261127000200).
-- ---------------------------------------------------------------------------------------------
create or replace function private.rate_limits()
returns table (action text, max_count integer, per interval, refusal text)
language sql
immutable
set search_path = ''
as $$
  values
    ('rooms', 10, interval '1 day', 'You''ve created 10 rooms today — try again in {wait}'),
    ('posts', 20, interval '1 hour', 'You''re posting quickly in this room — try again in {wait}'),
    ('comments', 20, interval '1 minute', 'You''re commenting quickly — try again in {wait}'),
    ('reactions', 60, interval '1 minute', 'You''re reacting quickly — try again in {wait}'),
    ('wallet links', 30, interval '10 minutes', 'Too many attempts to link a wallet — try again in {wait}'),
    ('recovery codes', 5, interval '15 minutes', 'Too many recovery codes tried — try again in {wait}')
$$;

-- ---------------------------------------------------------------------------------------------
-- A fresh second factor: the session's token says an authenticator code was entered in the last
-- 10 minutes (the `amr` claim's totp entry and its time), not only that it reached aal2 once.
-- ---------------------------------------------------------------------------------------------
create function private.fresh_authenticator_code()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((select auth.jwt() ->> 'aal') = 'aal2', false)
    and jsonb_typeof((select auth.jwt()) -> 'amr') = 'array'
    and exists (
      select 1 from jsonb_array_elements((select auth.jwt()) -> 'amr') entry
      where entry ->> 'method' = 'totp'
        and jsonb_typeof(entry -> 'timestamp') = 'number'
        and (entry ->> 'timestamp')::numeric >= extract(epoch from now()) - 600
    );
$$;

revoke all on function private.fresh_authenticator_code() from public;
grant execute on function private.fresh_authenticator_code() to authenticated, service_role;

comment on function private.fresh_authenticator_code() is
  'True when the caller''s token carries an authenticator code entered in the last 10 minutes (aal2, amr totp).';

-- ---------------------------------------------------------------------------------------------
-- New codes: replace every code of the account with ten new hashes, for its authenticator.
-- ---------------------------------------------------------------------------------------------
create function public.replace_recovery_codes(code_hashes text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  factor uuid;
begin
  if caller is null then
    raise exception 'Sign in to make recovery codes' using errcode = '42501';
  end if;
  select f.id into factor from auth.mfa_factors f
    where f.user_id = caller and f.status = 'verified'
    order by f.created_at desc
    limit 1;
  if factor is null then
    raise exception 'Set up an authenticator app first: recovery codes stand in for it' using errcode = '42501';
  end if;
  if not (select private.fresh_authenticator_code()) then
    raise exception 'Enter a code from your authenticator app first, then make new recovery codes' using errcode = '42501';
  end if;
  if coalesce(cardinality(replace_recovery_codes.code_hashes), 0) <> 10
     or (select count(distinct h) from unnest(replace_recovery_codes.code_hashes) h where h ~ '^[0-9a-f]{64}$') <> 10 then
    raise exception 'Recovery codes come as ten different codes' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('recovery codes:' || caller::text, 0));
  delete from private.recovery_codes c where c.user_id = caller;
  insert into private.recovery_codes (user_id, factor_id, code_hash)
    select caller, factor, h from unnest(replace_recovery_codes.code_hashes) h;
  return 10;
end;
$$;

comment on function public.replace_recovery_codes(text[]) is
  'Replaces the caller''s recovery codes with ten new hashes, bound to their authenticator; needs an authenticator code entered in the last 10 minutes. The old codes stop working at once.';

-- ---------------------------------------------------------------------------------------------
-- Using a code: true when it is one of the caller's own unused codes for an authenticator they
-- still have, which it marks used. Every try counts against the limit, a wrong one included.
-- ---------------------------------------------------------------------------------------------
create function public.redeem_recovery_code(code_hash text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  used uuid;
begin
  if caller is null then
    raise exception 'Sign in with your password first, then enter a recovery code' using errcode = '42501';
  end if;
  if not (select private.has_verified_factor()) then
    raise exception 'Two-factor authentication is off for this account, so it has no recovery codes' using errcode = '42501';
  end if;
  perform private.take_rate('recovery codes', caller);
  update private.recovery_codes c set used_at = clock_timestamp()
    where c.user_id = caller
      and c.code_hash = redeem_recovery_code.code_hash
      and c.used_at is null
      and c.factor_id in (select f.id from auth.mfa_factors f where f.user_id = caller and f.status = 'verified')
    returning c.id into used;
  return used is not null;
end;
$$;

comment on function public.redeem_recovery_code(text) is
  'Marks one of the caller''s unused recovery codes (by its hash) used and answers true, or answers false; 5 tries per 15 minutes (PT429 past that). Refused to a signed-out caller and to an account without two-factor.';

-- ---------------------------------------------------------------------------------------------
-- What /account shows: codes left for the current authenticator, and when a recovery code last
-- turned two-factor off (while it is still off).
-- ---------------------------------------------------------------------------------------------
create function public.recovery_codes_status()
returns table (codes_left integer, recovered_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select
    (select count(*)::integer from private.recovery_codes c
      where c.user_id = (select auth.uid()) and c.used_at is null
        and c.factor_id in (select f.id from auth.mfa_factors f where f.user_id = (select auth.uid()) and f.status = 'verified')),
    case when not (select private.has_verified_factor()) then
      (select max(c.used_at) from private.recovery_codes c where c.user_id = (select auth.uid()) and c.factor_id is null)
    end
  where (select auth.uid()) is not null;
$$;

comment on function public.recovery_codes_status() is
  'The caller''s recovery codes left (for their current authenticator) and, while two-factor is off, when a recovery code turned it off; no row for a signed-out caller.';

revoke all on function public.replace_recovery_codes(text[]) from public, anon;
revoke all on function public.redeem_recovery_code(text) from public, anon;
revoke all on function public.recovery_codes_status() from public, anon;
grant execute on function public.replace_recovery_codes(text[]) to authenticated;
grant execute on function public.redeem_recovery_code(text) to authenticated;
grant execute on function public.recovery_codes_status() to authenticated;
