-- Two-factor recovery codes: a table no API role reads or writes; ten codes made only with a fresh
-- authenticator code; a code works once, only for its own account, only while that account has the
-- authenticator it was made for; five tries per 15 minutes; nothing for a signed-out caller.
begin;
create extension if not exists pgtap with schema extensions;
select plan(51);

\ir helpers/roles.psql

-- A signed-in user whose token says an authenticator code was entered `seconds_ago` (aal2, amr totp).
create function pg_temp.act_fresh(user_id uuid, seconds_ago int) returns void
language plpgsql as $$
begin
  perform set_config('request.jwt.claims', json_build_object(
    'sub', user_id, 'role', 'authenticated', 'aal', 'aal2',
    'amr', json_build_array(json_build_object('method', 'totp', 'timestamp', floor(extract(epoch from now())) - seconds_ago)))::text, true);
  set local role authenticated;
end $$;

-- What the server sends: SHA-256 of "<user id>:<normalised code>", in hex (lib/auth/recovery-codes.ts).
create function pg_temp.h(user_id uuid, code text) returns text
language sql as $$ select encode(sha256(convert_to(user_id::text || ':' || code, 'UTF8')), 'hex') $$;

create function pg_temp.ten(user_id uuid, prefix text) returns text[]
language sql as $$ select array_agg(pg_temp.h(user_id, prefix || lpad(i::text, 2, '0')) order by i) from generate_series(1, 10) i $$;

create function pg_temp.redeem(user_id uuid, code_hash text) returns boolean
language plpgsql as $$
declare answer boolean;
begin
  perform pg_temp.act_at(user_id, 'aal1');
  answer := public.redeem_recovery_code(code_hash);
  perform pg_temp.act_as_superuser();
  return answer;
end $$;

-- a and b have an authenticator; c has none; d only an unverified one.
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('9a000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'rc-a@example.test', '{"username":"rc_a"}', now(), now()),
  ('9a000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'rc-b@example.test', '{"username":"rc_b"}', now(), now()),
  ('9a000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'rc-c@example.test', '{"username":"rc_c"}', now(), now()),
  ('9a000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'rc-d@example.test', '{"username":"rc_d"}', now(), now());
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) values
  ('9f000000-0000-4000-8000-00000000000a', '9a000000-0000-4000-8000-00000000000a', 'App', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP'),
  ('9f000000-0000-4000-8000-00000000000b', '9a000000-0000-4000-8000-00000000000b', 'App', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP'),
  ('9f000000-0000-4000-8000-00000000000d', '9a000000-0000-4000-8000-00000000000d', 'App', 'totp', 'unverified', now(), now(), 'JBSWY3DPEHPK3PXP');

-- ---------------------------------------------------------------------------------------------
-- The table: RLS whose one policy admits nothing, and no grant to any API role
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'private.recovery_codes'::regclass), 'recovery_codes has row-level security');
select is(
  (select array_agg(concat_ws(' | ', policyname, permissive, cmd, roles::text, qual, with_check)) from pg_policies where schemaname = 'private' and tablename = 'recovery_codes'),
  array['No API role reads or writes recovery codes | PERMISSIVE | ALL | {anon,authenticated,service_role} | false | false'],
  '… and one policy, which admits no row to anyone');
select is(
  (select count(*)::int from information_schema.role_table_grants
   where table_schema = 'private' and table_name = 'recovery_codes' and grantee in ('anon', 'authenticated', 'service_role', 'PUBLIC')),
  0, 'no API role holds any privilege on it');

select pg_temp.act_as('anon');
select throws_ok($$ select * from private.recovery_codes $$, '42501', null, 'anon cannot read the codes');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000a', 'aal2');
select throws_ok($$ select * from private.recovery_codes $$, '42501', null, 'a signed-in person cannot read even their own codes');
select throws_ok($$ insert into private.recovery_codes (user_id, code_hash) values ('9a000000-0000-4000-8000-00000000000a', repeat('a', 64)) $$,
  '42501', null, '… nor write one');
select throws_ok($$ update private.recovery_codes set used_at = null $$, '42501', null, '… nor mark a used one unused');
select throws_ok($$ delete from private.recovery_codes $$, '42501', null, '… nor delete them');
select pg_temp.act_as('service_role');
select throws_ok($$ select * from private.recovery_codes $$, '42501', null, 'the service role does not read them either');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- Who may call what
-- ---------------------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.replace_recovery_codes(text[])', 'execute'), 'anon cannot make codes');
select ok(not has_function_privilege('anon', 'public.redeem_recovery_code(text)', 'execute'), 'anon cannot try a code');
select ok(not has_function_privilege('anon', 'public.recovery_codes_status()', 'execute'), 'anon cannot ask how many are left');
select ok(has_function_privilege('authenticated', 'public.redeem_recovery_code(text)', 'execute'), 'a signed-in person may try a code (their own account''s)');
select ok(not has_function_privilege('authenticated', 'private.take_rate(text, uuid, uuid)', 'execute'), '… and cannot count tries for anyone themselves');
select pg_temp.act_as('anon');
select throws_ok($$ select public.redeem_recovery_code(repeat('a', 64)) $$, '42501', null, 'a signed-out caller gets nothing from trying a code');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- Making codes: a fresh authenticator code, an authenticator, ten different hashes
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000a', 'aal1');
select throws_ok($$ select public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000a', 'A')) $$,
  '42501', 'Enter a code from your authenticator app first, then make new recovery codes', 'a password alone (aal1) makes no codes');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000a', 'aal2');
select throws_ok($$ select public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000a', 'A')) $$,
  '42501', 'Enter a code from your authenticator app first, then make new recovery codes', 'an aal2 token without the authenticator''s amr entry makes none');
select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000a', 1200);
select throws_ok($$ select public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000a', 'A')) $$,
  '42501', 'Enter a code from your authenticator app first, then make new recovery codes', 'nor one whose authenticator code is 20 minutes old');
select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000a', 5);
select throws_ok($$ select public.replace_recovery_codes((pg_temp.ten('9a000000-0000-4000-8000-00000000000a', 'A'))[1:9]) $$,
  '22023', 'Recovery codes come as ten different codes', 'nine codes are refused');
select throws_ok($$ select public.replace_recovery_codes(array_fill(pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'X'), array[10])) $$,
  '22023', 'Recovery codes come as ten different codes', 'ten copies of one code are refused');
select throws_ok($$ select public.replace_recovery_codes(array_fill('not-a-hash'::text, array[10])) $$,
  '22023', 'Recovery codes come as ten different codes', 'anything but SHA-256 hex is refused');
select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000c', 5);
select throws_ok($$ select public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000c', 'C')) $$,
  '42501', 'Set up an authenticator app first: recovery codes stand in for it', 'an account without an authenticator makes none');
select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000d', 5);
select throws_ok($$ select public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000d', 'D')) $$,
  '42501', 'Set up an authenticator app first: recovery codes stand in for it', '… nor one with an unverified authenticator only');

select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000a', 5);
select is(public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000a', 'A')), 10, 'with a fresh authenticator code, ten codes are made');
select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000b', 5);
-- b's codes are the same words as a's: hashed with b's id, they are different rows.
select is(public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000b', 'A')), 10, 'another account makes its own ten');
select pg_temp.act_as_superuser();
select is(
  (select array_agg(distinct factor_id) from private.recovery_codes where user_id = '9a000000-0000-4000-8000-00000000000a'),
  array['9f000000-0000-4000-8000-00000000000a']::uuid[], 'a''s codes belong to a''s authenticator');
select is((select count(*)::int from private.recovery_codes where used_at is null and user_id::text like '9a000000-%'), 20,
  'twenty unused codes, stored as hashes only');

select pg_temp.act_at('9a000000-0000-4000-8000-00000000000a', 'aal1');
select results_eq($$ select codes_left, recovered_at from public.recovery_codes_status() $$,
  $$ values (10, null::timestamptz) $$, 'a reads 10 codes left');
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.recovery_codes_status()), 0, 'a caller with no user id reads nothing');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- Using a code: once, for its own account, five tries per 15 minutes
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000a', pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'A01')), true,
  'a''s own unused code works from a password-only (aal1) session');
select isnt((select used_at from private.recovery_codes where code_hash = pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'A01')), null,
  '… and its use is recorded');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000a', pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'A01')), false,
  'the same code a second time does not');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000a', pg_temp.h('9a000000-0000-4000-8000-00000000000b', 'A02')), false,
  'b''s code (as b''s hash) does nothing for a');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000a', pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'ZZZ')), false,
  'a wrong code does nothing');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000a', pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'ZZY')), false,
  '… nor a second wrong one (the fifth try)');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000a', 'aal1');
select throws_ok($$ select public.redeem_recovery_code(pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'A02')) $$,
  'PT429', 'Too many recovery codes tried — try again in 15 minutes', 'the sixth try in 15 minutes is refused, a right code included, with the wait in words');
select pg_temp.act_as_superuser();
select is((select used_at from private.recovery_codes where code_hash = pg_temp.h('9a000000-0000-4000-8000-00000000000a', 'A02')), null,
  '… which stays unused');
select is((select count(*)::int from private.rate_events where person = '9a000000-0000-4000-8000-00000000000a' and action = 'recovery codes'), 5,
  'wrong tries are counted (they are answers, not errors, so they are kept)');
select is((select count(*)::int from private.recovery_codes where user_id = '9a000000-0000-4000-8000-00000000000b' and used_at is not null), 0,
  'a''s tries used none of b''s codes');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000b', pg_temp.h('9a000000-0000-4000-8000-00000000000b', 'A01')), true,
  'b''s tries are counted apart: b''s code with the same words works for b');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000a', 'aal1');
select results_eq($$ select codes_left from public.recovery_codes_status() $$, $$ values (9) $$, 'a has 9 codes left');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000c', 'aal1');
select throws_ok($$ select public.redeem_recovery_code(pg_temp.h('9a000000-0000-4000-8000-00000000000c', 'C01')) $$,
  '42501', 'Two-factor authentication is off for this account, so it has no recovery codes', 'an account without two-factor is told no code applies');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000d', 'aal1');
select throws_ok($$ select public.redeem_recovery_code(pg_temp.h('9a000000-0000-4000-8000-00000000000d', 'D01')) $$,
  '42501', 'Two-factor authentication is off for this account, so it has no recovery codes', '… nor one with an unverified authenticator only');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- New codes void the old ones at once; losing the authenticator voids them all
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_fresh('9a000000-0000-4000-8000-00000000000b', 5);
select is(public.replace_recovery_codes(pg_temp.ten('9a000000-0000-4000-8000-00000000000b', 'N')), 10, 'b makes a new set');
select pg_temp.act_as_superuser();
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000b', pg_temp.h('9a000000-0000-4000-8000-00000000000b', 'A02')), false,
  'an old code stops working at once');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000b', pg_temp.h('9a000000-0000-4000-8000-00000000000b', 'N01')), true,
  'a new one works');
-- What the server does next: Auth's admin API removes b's authenticator.
delete from auth.mfa_factors where id = '9f000000-0000-4000-8000-00000000000b';
select is((select count(*)::int from private.recovery_codes where user_id = '9a000000-0000-4000-8000-00000000000b' and factor_id is not null), 0,
  'with the authenticator gone, b''s codes belong to none');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000b', 'aal1');
select results_eq($$ select codes_left, recovered_at is not null from public.recovery_codes_status() $$, $$ values (0, true) $$,
  'b reads no codes left, and that a recovery code turned two-factor off');
select pg_temp.act_as_superuser();
-- b sets up a new authenticator elsewhere (straight through Auth): the old set stays void.
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) values
  ('9f000000-0000-4000-8000-0000000000b2', '9a000000-0000-4000-8000-00000000000b', 'New app', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP');
select is(pg_temp.redeem('9a000000-0000-4000-8000-00000000000b', pg_temp.h('9a000000-0000-4000-8000-00000000000b', 'N02')), false,
  'a code made for the old authenticator never works with a new one');
select pg_temp.act_at('9a000000-0000-4000-8000-00000000000b', 'aal1');
select results_eq($$ select codes_left, recovered_at from public.recovery_codes_status() $$, $$ values (0, null::timestamptz) $$,
  'with two-factor on again, b reads 0 codes left and no recovery notice');
select pg_temp.act_as_superuser();

delete from auth.users where id = '9a000000-0000-4000-8000-00000000000a';
select is((select count(*)::int from private.recovery_codes where user_id = '9a000000-0000-4000-8000-00000000000a'), 0,
  'a deleted account''s codes go with it');

select * from finish();
rollback;
