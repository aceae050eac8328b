-- public.account_passkeys(): the caller's own passkeys only, without their keys; nothing for a token
-- without a user; anon may not call it.
begin;
create extension if not exists pgtap with schema extensions;
select plan(9);

\ir helpers/roles.psql

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('9b000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'pk-a@example.test', '{"username":"pk_a"}', now(), now()),
  ('9b000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'pk-b@example.test', '{"username":"pk_b"}', now(), now()),
  ('9b000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'pk-c@example.test', '{"username":"pk_c"}', now(), now());

insert into auth.webauthn_credentials (id, user_id, credential_id, public_key, friendly_name, created_at, last_used_at) values
  ('9b100000-0000-4000-8000-000000000001', '9b000000-0000-4000-8000-00000000000a', '\x01', '\x0a', 'Laptop', now() - interval '2 days', now() - interval '1 hour'),
  ('9b100000-0000-4000-8000-000000000002', '9b000000-0000-4000-8000-00000000000a', '\x02', '\x0b', 'Phone', now() - interval '1 day', null),
  ('9b100000-0000-4000-8000-000000000003', '9b000000-0000-4000-8000-00000000000b', '\x03', '\x0c', 'Other', now(), null);

select pg_temp.act_at('9b000000-0000-4000-8000-00000000000a', 'aal1');
select results_eq(
  'select id, friendly_name, last_used_at is not null from public.account_passkeys()',
  $$ values ('9b100000-0000-4000-8000-000000000001'::uuid, 'Laptop'::text, true), ('9b100000-0000-4000-8000-000000000002'::uuid, 'Phone'::text, false) $$,
  'the caller''s own passkeys, oldest first, with when each was last used');

select pg_temp.act_at('9b000000-0000-4000-8000-00000000000b', 'aal1');
select results_eq('select id from public.account_passkeys()', $$ values ('9b100000-0000-4000-8000-000000000003'::uuid) $$,
  'another account sees only its own passkey');

select pg_temp.act_at('9b000000-0000-4000-8000-00000000000c', 'aal1');
select is_empty('select * from public.account_passkeys()', 'no passkeys: none listed');

select pg_temp.act_as('authenticated');
select is_empty('select * from public.account_passkeys()', 'a token without a user: nothing listed');

select pg_temp.act_as('anon');
select throws_ok('select * from public.account_passkeys()', '42501', null, 'anon may not list passkeys');

select pg_temp.act_as_superuser();
select is(
  pg_get_function_result('public.account_passkeys()'::regprocedure),
  'TABLE(id uuid, friendly_name text, created_at timestamp with time zone, last_used_at timestamp with time zone)',
  'passkeys are listed without their credential id or public key');
select is(
  (select prosecdef and proconfig = array['search_path=""'] from pg_proc where oid = 'public.account_passkeys()'::regprocedure),
  true, 'it runs as its owner with an empty search_path');
select is(has_function_privilege('anon', 'public.account_passkeys()', 'execute'), false, 'anon holds no execute on it');
select is(has_function_privilege('authenticated', 'public.account_passkeys()', 'execute'), true, 'a signed-in person may call it');

select * from finish();
rollback;
