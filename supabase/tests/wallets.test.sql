-- wallets: the address rules, the 5-per-account limit, the web3 sign-in trigger, the public
-- names function, and every role × operation.
begin;
create extension if not exists pgtap with schema extensions;
select plan(44);

\ir helpers/roles.psql

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'owner@example.test', '{"username":"wallet_owner"}', now(), now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'other@example.test', '{"username":"wallet_other"}', now(), now()),
  ('33333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', null, '{}', now(), now());

insert into public.wallets (address, user_id, ens_name, ens_avatar, ens_checked_at)
values
  ('0x1111111111111111111111111111111111111111', '11111111-1111-4111-8111-111111111111', 'owner.eth', 'http://127.0.0.1/a.svg', now()),
  ('0x2222222222222222222222222222222222222222', '22222222-2222-4222-8222-222222222222', null, null, null);

-- ---------------------------------------------------------------------------------------------
-- Rules (as the superuser, so only constraints and triggers decide)
-- ---------------------------------------------------------------------------------------------
select throws_like($$ insert into public.wallets (address, user_id) values ('0xABCDEF0123456789abcdef0123456789abcdef01', '11111111-1111-4111-8111-111111111111') $$,
  '%wallets_address_format%', 'a checksummed (mixed-case) address is rejected: addresses are stored lowercase');
select throws_like($$ insert into public.wallets (address, user_id) values ('0x123', '11111111-1111-4111-8111-111111111111') $$,
  '%wallets_address_format%', 'a short address is rejected');
select throws_like($$ insert into public.wallets (address, user_id) values ('1111111111111111111111111111111111111111ab', '11111111-1111-4111-8111-111111111111') $$,
  '%wallets_address_format%', 'an address without 0x is rejected');
select throws_ok($$ insert into public.wallets (address, user_id) values ('0x2222222222222222222222222222222222222222', '11111111-1111-4111-8111-111111111111') $$,
  '23505', null, 'an address linked to another account cannot be linked again');
select throws_like($$ insert into public.wallets (address, user_id, ens_name) values ('0x3333333333333333333333333333333333333333', '11111111-1111-4111-8111-111111111111', repeat('x', 256)) $$,
  '%wallets_ens_name_length%', 'an over-long ENS name is rejected');
select lives_ok($$ insert into public.wallets (address, user_id)
  select '0x' || lpad(to_hex(n), 40, '0'), '11111111-1111-4111-8111-111111111111' from generate_series(1, 4) n $$,
  'an account may have 5 wallets');
select throws_like($$ insert into public.wallets (address, user_id) values ('0x00000000000000000000000000000000000000ff', '11111111-1111-4111-8111-111111111111') $$,
  '%at most 5 wallets%', 'a sixth wallet is refused');
select throws_like($$ update public.wallets set user_id = '11111111-1111-4111-8111-111111111111' where address = '0x2222222222222222222222222222222222222222' $$,
  '%at most 5 wallets%', 'moving a wallet into a full account is refused too');
select lives_ok($$ update public.wallets set ens_name = 'owner.eth', ens_checked_at = now() where address = '0x1111111111111111111111111111111111111111' $$,
  'a full account''s wallet can still have its ENS columns refreshed');
select is((select count(*)::int from public.wallets where user_id = '11111111-1111-4111-8111-111111111111'), 5, 'the account has exactly 5 wallets');

-- ---------------------------------------------------------------------------------------------
-- Sign in with Ethereum links the wallet
-- ---------------------------------------------------------------------------------------------
insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
values ('web3:ethereum:0xAbCdEf0123456789abcdef0123456789ABCDEF01', '33333333-3333-4333-8333-333333333333',
  '{"sub":"web3:ethereum:0xAbCdEf0123456789abcdef0123456789ABCDEF01","custom_claims":{"address":"0xAbCdEf0123456789abcdef0123456789ABCDEF01","chain":"ethereum"}}', 'web3', now(), now());
select is((select user_id from public.wallets where address = '0xabcdef0123456789abcdef0123456789abcdef01'), '33333333-3333-4333-8333-333333333333'::uuid,
  'a web3 identity''s address becomes a linked wallet of its account, lowercased');
insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
values ('web3:ethereum:0x2222222222222222222222222222222222222222', '33333333-3333-4333-8333-333333333333',
  '{"sub":"web3:ethereum:0x2222222222222222222222222222222222222222","custom_claims":{"address":"0x2222222222222222222222222222222222222222"}}', 'web3', now(), now());
select is((select user_id from public.wallets where address = '0x2222222222222222222222222222222222222222'), '22222222-2222-4222-8222-222222222222'::uuid,
  'a sign-in with a wallet another account linked leaves it with that account');
select lives_ok($$ insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
  values ('web3:ethereum:0x9999999999999999999999999999999999999999', '11111111-1111-4111-8111-111111111111',
  '{"sub":"web3:ethereum:0x9999999999999999999999999999999999999999","custom_claims":{"address":"0x9999999999999999999999999999999999999999"}}', 'web3', now(), now()) $$,
  'a web3 identity for a full account is still created');
select is_empty($$ select 1 from public.wallets where address = '0x9999999999999999999999999999999999999999' $$,
  '... but the wallet is not added past the limit');
select lives_ok($$ insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
  values ('33333333-3333-4333-8333-333333333333', '33333333-3333-4333-8333-333333333333', '{"sub":"33333333-3333-4333-8333-333333333333"}', 'email', now(), now()) $$,
  'other identities are not wallets');
select is((select count(*)::int from public.wallets where user_id = '33333333-3333-4333-8333-333333333333'), 1, 'the email identity added no wallet');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$ select * from public.wallets $$, '42501', null, 'anon cannot read the wallets table');
select throws_ok($$ insert into public.wallets (address, user_id) values ('0x4444444444444444444444444444444444444444', '11111111-1111-4111-8111-111111111111') $$,
  '42501', null, 'anon cannot insert a wallet');
select throws_ok($$ update public.wallets set ens_name = 'evil.eth' $$, '42501', null, 'anon cannot update a wallet');
select throws_ok($$ delete from public.wallets $$, '42501', null, 'anon cannot delete a wallet');
select results_eq($$ select address, ens_name, ens_avatar from public.profile_wallets('11111111-1111-4111-8111-111111111111') limit 1 $$,
  $$ values ('0x0000000000000000000000000000000000000001'::text, null::text, null::text) $$,
  'anon reads a profile''s wallets (address, ENS name and avatar) through profile_wallets');
select is((select count(*)::int from public.profile_wallets('11111111-1111-4111-8111-111111111111')), 5, 'profile_wallets lists all of that profile''s wallets');
select is((select ens_name from public.profile_wallets('11111111-1111-4111-8111-111111111111') where address = '0x1111111111111111111111111111111111111111'),
  'owner.eth', 'with their ENS names');
select is_empty($$ select * from public.profile_wallets('99999999-9999-4999-8999-999999999999') $$, 'an unknown profile has no wallets');

-- ---------------------------------------------------------------------------------------------
-- another signed-in user
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '22222222-2222-4222-8222-222222222222');
select is_empty($$ select * from public.wallets where user_id = '11111111-1111-4111-8111-111111111111' $$, 'a user cannot read another account''s wallets');
select is((select count(*)::int from public.wallets), 1, 'a user sees only their own wallet rows');
select throws_ok($$ insert into public.wallets (address, user_id) values ('0x4444444444444444444444444444444444444444', '22222222-2222-4222-8222-222222222222') $$,
  '42501', null, 'a user cannot insert a wallet, even for themselves (only the server does, after a signature)');
select throws_ok($$ update public.wallets set ens_name = 'evil.eth' where address = '0x2222222222222222222222222222222222222222' $$,
  '42501', null, 'a user cannot update a wallet row, even their own');
select is_empty($$ delete from public.wallets where address = '0x1111111111111111111111111111111111111111' returning address $$,
  'a user''s delete of another account''s wallet matches no row');
select is((select count(*)::int from public.profile_wallets('11111111-1111-4111-8111-111111111111')), 5, 'signed-in users read other profiles'' wallet names too');
select pg_temp.act_as_superuser();
select is((select user_id from public.wallets where address = '0x1111111111111111111111111111111111111111'), '11111111-1111-4111-8111-111111111111'::uuid,
  'the wallet is still linked after another user''s attempts');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '11111111-1111-4111-8111-111111111111');
select is((select count(*)::int from public.wallets), 5, 'the owner reads their own wallets');
select is((select ens_name from public.wallets where address = '0x1111111111111111111111111111111111111111'), 'owner.eth', 'with the cached ENS name');
select throws_ok($$ insert into public.wallets (address, user_id) values ('0x5555555555555555555555555555555555555555', '11111111-1111-4111-8111-111111111111') $$,
  '42501', null, 'the owner cannot insert a wallet directly');
select throws_ok($$ update public.wallets set user_id = '22222222-2222-4222-8222-222222222222' where address = '0x1111111111111111111111111111111111111111' $$,
  '42501', null, 'the owner cannot hand a wallet to another account');
select results_eq($$ delete from public.wallets where address = '0x1111111111111111111111111111111111111111' returning address $$,
  $$ values ('0x1111111111111111111111111111111111111111'::text) $$, 'the owner unlinks their own wallet');
select pg_temp.act_as_superuser();
select is_empty($$ select 1 from public.wallets where address = '0x1111111111111111111111111111111111111111' $$, 'the unlinked wallet is gone');

-- ---------------------------------------------------------------------------------------------
-- service_role (the link-wallet function)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('service_role');
select lives_ok($$ insert into public.wallets (address, user_id, verified_at) values ('0x6666666666666666666666666666666666666666', '22222222-2222-4222-8222-222222222222', now()) $$,
  'the server inserts a verified wallet');
select lives_ok($$ update public.wallets set ens_name = 'other.eth', ens_checked_at = now() where address = '0x6666666666666666666666666666666666666666' $$,
  'the server refreshes ENS columns');
select is((select count(*)::int from public.wallets where user_id = '22222222-2222-4222-8222-222222222222'), 2, 'the server reads every account''s wallets');
select lives_ok($$ delete from public.wallets where address = '0x6666666666666666666666666666666666666666' $$, 'the server deletes a wallet');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- lifecycle and shape
-- ---------------------------------------------------------------------------------------------
delete from auth.users where id = '22222222-2222-4222-8222-222222222222';
select is_empty($$ select 1 from public.wallets where user_id = '22222222-2222-4222-8222-222222222222' $$, 'deleting the account unlinks its wallets');
select policies_are('public', 'wallets', array['Users read their own wallets', 'Users unlink their own wallets', 'A user with a verified factor unlinks wallets only at aal2'], 'wallets has exactly the expected policies');
select has_index('public', 'wallets', 'wallets_user_id_idx', 'the policy column user_id is indexed');

select * from finish();
rollback;
