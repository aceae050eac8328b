-- Two-factor sign-in enforced by Postgres: a user with a verified factor changes their profile,
-- unlinks wallets, edits gates and changes roles only from an aal2 session; users without one (or
-- with an unverified one only) are not held back.
begin;
create extension if not exists pgtap with schema extensions;
select plan(23);

\ir helpers/roles.psql

-- enrolled (verified factor), plain (no factor), pending (an unverified factor only)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values
  ('c1111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'enrolled@example.test', '{"username":"mfa_enrolled"}', now(), now()),
  ('c2222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'plain@example.test', '{"username":"mfa_plain"}', now(), now()),
  ('c3333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', 'pending@example.test', '{"username":"mfa_pending"}', now(), now());

insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
values
  ('d1111111-1111-4111-8111-111111111111', 'c1111111-1111-4111-8111-111111111111', 'App', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP'),
  ('d3333333-3333-4333-8333-333333333333', 'c3333333-3333-4333-8333-333333333333', 'App', 'totp', 'unverified', now(), now(), 'JBSWY3DPEHPK3PXP');

insert into public.wallets (address, user_id)
values
  ('0xc111111111111111111111111111111111111111', 'c1111111-1111-4111-8111-111111111111'),
  ('0xc111111111111111111111111111111111111112', 'c1111111-1111-4111-8111-111111111111'),
  ('0xc222222222222222222222222222222222222222', 'c2222222-2222-4222-8222-222222222222');

-- Rooms owned by the enrolled user and by the plain one, each with the other as a member.
insert into public.rooms (id, slug, name, owner_id)
values
  ('e1111111-1111-4111-8111-111111111111', 'enrolled-room', 'Enrolled room', 'c1111111-1111-4111-8111-111111111111'),
  ('e2222222-2222-4222-8222-222222222222', 'plain-room', 'Plain room', 'c2222222-2222-4222-8222-222222222222');
insert into public.memberships (room_id, user_id, role)
values
  ('e1111111-1111-4111-8111-111111111111', 'c2222222-2222-4222-8222-222222222222', 'member'),
  ('e2222222-2222-4222-8222-222222222222', 'c1111111-1111-4111-8111-111111111111', 'member');

-- ---------------------------------------------------------------------------------------------
-- Profiles
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal1');
select is(pg_temp.touched($$ update public.profiles set bio = 'from aal1' where id = 'c1111111-1111-4111-8111-111111111111' $$), 0,
  'a user with a verified factor cannot update their profile from an aal1 session');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', null);
select is(pg_temp.touched($$ update public.profiles set bio = 'no aal' where id = 'c1111111-1111-4111-8111-111111111111' $$), 0,
  '… nor from a token without an aal claim');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal2');
select is(pg_temp.touched($$ update public.profiles set bio = 'from aal2' where id = 'c1111111-1111-4111-8111-111111111111' $$), 1,
  'from an aal2 session they can');
select pg_temp.act_at('c2222222-2222-4222-8222-222222222222', 'aal1');
select is(pg_temp.touched($$ update public.profiles set bio = 'plain' where id = 'c2222222-2222-4222-8222-222222222222' $$), 1,
  'a user without a factor updates their profile at aal1');
select pg_temp.act_at('c3333333-3333-4333-8333-333333333333', 'aal1');
select is(pg_temp.touched($$ update public.profiles set bio = 'pending' where id = 'c3333333-3333-4333-8333-333333333333' $$), 1,
  'an unverified factor does not count: that user updates at aal1');
select pg_temp.act_at('c2222222-2222-4222-8222-222222222222', 'aal2');
select is(pg_temp.touched($$ update public.profiles set bio = 'not mine' where id = 'c1111111-1111-4111-8111-111111111111' $$), 0,
  'aal2 grants nothing beyond the permissive policies: another user''s profile stays theirs');
select pg_temp.act_as_superuser();
select is((select bio from public.profiles where id = 'c1111111-1111-4111-8111-111111111111'), 'from aal2', 'only the aal2 update reached the enrolled user''s profile');

-- ---------------------------------------------------------------------------------------------
-- Wallets
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal1');
select is(pg_temp.touched($$ delete from public.wallets where address = '0xc111111111111111111111111111111111111111' $$), 0,
  'a user with a verified factor cannot unlink a wallet at aal1');
select is((select count(*)::int from public.wallets), 2, '… and still reads both their wallets');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal2');
select is(pg_temp.touched($$ delete from public.wallets where address = '0xc111111111111111111111111111111111111111' $$), 1,
  'at aal2 they unlink it');
select pg_temp.act_at('c2222222-2222-4222-8222-222222222222', 'aal1');
select is(pg_temp.touched($$ delete from public.wallets where address = '0xc222222222222222222222222222222222222222' $$), 1,
  'a user without a factor unlinks at aal1');
select throws_ok($$ insert into public.wallets (address, user_id) values ('0xc333333333333333333333333333333333333333', 'c2222222-2222-4222-8222-222222222222') $$,
  '42501', null, 'wallets are still linked only by the server');

-- ---------------------------------------------------------------------------------------------
-- Room gates
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal1');
select throws_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard)
  values ('e1111111-1111-4111-8111-111111111111', 31337, '0xabababababababababababababababababababab', 'erc721') $$,
  '42501', null, 'the owner with a verified factor cannot set a gate at aal1');
select throws_ok($$ select public.set_room_gate('e1111111-1111-4111-8111-111111111111',
  '{"chain_id": 31337, "contract_address": "0xabababababababababababababababababababab", "standard": "erc721"}') $$,
  '42501', null, '… not through set_room_gate either');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal2');
select lives_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard)
  values ('e1111111-1111-4111-8111-111111111111', 31337, '0xabababababababababababababababababababab', 'erc721') $$,
  'at aal2 the owner sets the gate');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal1');
select is(pg_temp.touched($$ update public.room_gates set standard = 'erc20', token_id = null where room_id = 'e1111111-1111-4111-8111-111111111111' $$), 0,
  'at aal1 the owner cannot change the gate');
select is(pg_temp.touched($$ delete from public.room_gates where room_id = 'e1111111-1111-4111-8111-111111111111' $$), 0,
  '… nor remove it');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal2');
select is(pg_temp.touched($$ update public.room_gates set standard = 'erc20', token_id = null where room_id = 'e1111111-1111-4111-8111-111111111111' $$), 1,
  'at aal2 the owner changes the gate');
select is(pg_temp.touched($$ delete from public.room_gates where room_id = 'e1111111-1111-4111-8111-111111111111' $$), 1,
  'at aal2 the owner removes the gate');
select pg_temp.act_at('c2222222-2222-4222-8222-222222222222', 'aal1');
select lives_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard)
  values ('e2222222-2222-4222-8222-222222222222', 31337, '0xabababababababababababababababababababab', 'erc721') $$,
  'an owner without a factor sets a gate at aal1');

-- ---------------------------------------------------------------------------------------------
-- Roles
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal1');
select is(pg_temp.touched($$ update public.memberships set role = 'moderator'
  where room_id = 'e1111111-1111-4111-8111-111111111111' and user_id = 'c2222222-2222-4222-8222-222222222222' $$), 0,
  'the owner with a verified factor cannot promote a member at aal1');
select pg_temp.act_at('c1111111-1111-4111-8111-111111111111', 'aal2');
select is(pg_temp.touched($$ update public.memberships set role = 'moderator'
  where room_id = 'e1111111-1111-4111-8111-111111111111' and user_id = 'c2222222-2222-4222-8222-222222222222' $$), 1,
  'at aal2 they can');
select pg_temp.act_at('c2222222-2222-4222-8222-222222222222', 'aal1');
select is(pg_temp.touched($$ update public.memberships set role = 'moderator'
  where room_id = 'e2222222-2222-4222-8222-222222222222' and user_id = 'c1111111-1111-4111-8111-111111111111' $$), 1,
  'an owner without a factor changes roles at aal1');

select * from finish();
rollback;
