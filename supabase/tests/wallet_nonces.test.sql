-- wallet_nonces: the server's alone. Every role × operation, the defaults and the format rule.
begin;
create extension if not exists pgtap with schema extensions;
select plan(17);

\ir helpers/roles.psql

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'nonce-owner@example.test', '{"username":"nonce_owner"}', now(), now());

insert into public.wallet_nonces (nonce, user_id) values ('AbCdEfGh0123456789xyz', '11111111-1111-4111-8111-111111111111');

select is((select expires_at - created_at from public.wallet_nonces where nonce = 'AbCdEfGh0123456789xyz'), interval '10 minutes', 'a nonce is valid for 10 minutes');
select is((select used_at from public.wallet_nonces where nonce = 'AbCdEfGh0123456789xyz'), null, 'a new nonce is unused');
select throws_like($$ insert into public.wallet_nonces (nonce, user_id) values ('short', '11111111-1111-4111-8111-111111111111') $$,
  '%wallet_nonces_format%', 'a nonce shorter than 16 characters is rejected');
select throws_like($$ insert into public.wallet_nonces (nonce, user_id) values ('has spaces and-dashes!', '11111111-1111-4111-8111-111111111111') $$,
  '%wallet_nonces_format%', 'a nonce with other than letters and digits is rejected (EIP-4361 nonces are alphanumeric)');

-- anon and signed-in users, even the one the nonce was issued to: no access at all
select pg_temp.act_as('anon');
select throws_ok($$ select * from public.wallet_nonces $$, '42501', null, 'anon cannot read nonces');
select throws_ok($$ insert into public.wallet_nonces (nonce, user_id) values ('AnonNonce0123456789', '11111111-1111-4111-8111-111111111111') $$, '42501', null, 'anon cannot insert a nonce');
select throws_ok($$ update public.wallet_nonces set used_at = null $$, '42501', null, 'anon cannot update a nonce');
select throws_ok($$ delete from public.wallet_nonces $$, '42501', null, 'anon cannot delete a nonce');

select pg_temp.act_as('authenticated', '11111111-1111-4111-8111-111111111111');
select throws_ok($$ select * from public.wallet_nonces $$, '42501', null, 'the user a nonce was issued to cannot read it');
select throws_ok($$ insert into public.wallet_nonces (nonce, user_id) values ('OwnNonce0123456789', '11111111-1111-4111-8111-111111111111') $$, '42501', null, 'a user cannot insert a nonce of their choosing');
select throws_ok($$ update public.wallet_nonces set used_at = null $$, '42501', null, 'a user cannot reset a used nonce');
select throws_ok($$ delete from public.wallet_nonces $$, '42501', null, 'a user cannot delete nonces');

-- the server
select pg_temp.act_as('service_role');
select lives_ok($$ insert into public.wallet_nonces (nonce, user_id) values ('ServerNonce0123456789', '11111111-1111-4111-8111-111111111111') $$, 'the server issues a nonce');
select results_eq($$ update public.wallet_nonces set used_at = now() where nonce = 'ServerNonce0123456789' and used_at is null returning nonce $$,
  $$ values ('ServerNonce0123456789'::text) $$, 'the server consumes a nonce once');
select is_empty($$ update public.wallet_nonces set used_at = now() where nonce = 'ServerNonce0123456789' and used_at is null returning nonce $$,
  '... and a second consumption matches nothing');
select pg_temp.act_as_superuser();

delete from auth.users where id = '11111111-1111-4111-8111-111111111111';
select is_empty($$ select 1 from public.wallet_nonces where user_id = '11111111-1111-4111-8111-111111111111' $$, 'a deleted account''s nonces go with it');
select policies_are('public', 'wallet_nonces', array['Nonces are the server''s alone'], 'wallet_nonces has exactly the expected policy');

select * from finish();
rollback;
