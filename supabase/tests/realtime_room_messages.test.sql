-- The policies on realtime.messages for room channels (`room:{room id}`), as Realtime applies
-- them: with realtime.topic() set to the channel's topic, a select decides who may receive and an
-- insert who may send (broadcast or presence). Every role × room kind × extension.
begin;
create extension if not exists pgtap with schema extensions;
select plan(26);

\ir helpers/roles.psql

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values
  ('a1111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'room-owner@example.test', '{"username":"rt_room_owner"}', now(), now()),
  ('a2222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'room-member@example.test', '{"username":"rt_room_member"}', now(), now()),
  ('a3333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', 'room-outsider@example.test', '{"username":"rt_room_outsider"}', now(), now());

insert into public.rooms (id, slug, name, owner_id, visibility)
values
  ('b1111111-1111-4111-8111-111111111111', 'rt-open-room', 'Open room', 'a1111111-1111-4111-8111-111111111111', 'public'),
  ('b2222222-2222-4222-8222-222222222222', 'rt-gated-room', 'Gated room', 'a1111111-1111-4111-8111-111111111111', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard)
values ('b2222222-2222-4222-8222-222222222222', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id) values ('b2222222-2222-4222-8222-222222222222', 'a2222222-2222-4222-8222-222222222222');
select pg_temp.verify_gated_members();
-- The fixtures' own broadcasts (membership changes) are not what these tests count.
delete from realtime.messages where topic like 'room:%';

-- ---------------------------------------------------------------------------------------------
-- Receiving
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.visible('room:b1111111-1111-4111-8111-111111111111', 'anon'), 2, 'anon receives on a public room''s topic');
select is(pg_temp.visible('room:b1111111-1111-4111-8111-111111111111', 'authenticated', 'a3333333-3333-4333-8333-333333333333'), 2,
  'a signed-in non-member receives on a public room''s topic');
select is(pg_temp.visible('room:b2222222-2222-4222-8222-222222222222', 'authenticated', 'a2222222-2222-4222-8222-222222222222'), 2,
  'a member receives on a gated room''s topic');
select is(pg_temp.visible('room:b2222222-2222-4222-8222-222222222222', 'authenticated', 'a1111111-1111-4111-8111-111111111111'), 2,
  'the owner receives on a gated room''s topic');
select is(pg_temp.visible('room:b2222222-2222-4222-8222-222222222222', 'authenticated', 'a3333333-3333-4333-8333-333333333333'), 0,
  'a non-member does not receive on a gated room''s topic');
select is(pg_temp.visible('room:b2222222-2222-4222-8222-222222222222', 'anon'), 0, 'anon does not receive on a gated room''s topic');
select is(pg_temp.visible('room:c0000000-0000-4000-8000-000000000000', 'authenticated', 'a2222222-2222-4222-8222-222222222222'), 0,
  'nobody receives on the topic of a room that does not exist');
select is(pg_temp.visible('room:not-a-uuid', 'authenticated', 'a2222222-2222-4222-8222-222222222222'), 0,
  'a malformed room topic is refused, not an error');
select is(pg_temp.visible('room:B2222222-2222-4222-8222-222222222222', 'authenticated', 'a2222222-2222-4222-8222-222222222222'), 0,
  'a room topic must name the room''s id as written (lowercase)');
select is(pg_temp.visible('lobby:b1111111-1111-4111-8111-111111111111', 'anon'), 0, 'these policies open no other topic');


-- ---------------------------------------------------------------------------------------------
-- Sending presence: members only
-- ---------------------------------------------------------------------------------------------
select ok(pg_temp.may_send('room:b2222222-2222-4222-8222-222222222222', 'presence', 'authenticated', 'a2222222-2222-4222-8222-222222222222'),
  'a member sends presence in a gated room');
select ok(pg_temp.may_send('room:b1111111-1111-4111-8111-111111111111', 'presence', 'authenticated', 'a1111111-1111-4111-8111-111111111111'),
  'a member (the owner) sends presence in a public room');
select ok(not pg_temp.may_send('room:b1111111-1111-4111-8111-111111111111', 'presence', 'authenticated', 'a3333333-3333-4333-8333-333333333333'),
  'a signed-in non-member cannot send presence in a public room');
select ok(not pg_temp.may_send('room:b1111111-1111-4111-8111-111111111111', 'presence', 'anon'), 'anon cannot send presence in a public room');
select ok(not pg_temp.may_send('room:b2222222-2222-4222-8222-222222222222', 'presence', 'authenticated', 'a3333333-3333-4333-8333-333333333333'),
  'a non-member cannot send presence in a gated room');
select ok(not pg_temp.may_send('room:not-a-uuid', 'presence', 'authenticated', 'a2222222-2222-4222-8222-222222222222'),
  'nobody sends presence on a malformed room topic');

-- ---------------------------------------------------------------------------------------------
-- Sending broadcasts: nobody but the database
-- ---------------------------------------------------------------------------------------------
select ok(not pg_temp.may_send('room:b2222222-2222-4222-8222-222222222222', 'broadcast', 'authenticated', 'a2222222-2222-4222-8222-222222222222'),
  'a member cannot broadcast in a gated room');
select ok(not pg_temp.may_send('room:b1111111-1111-4111-8111-111111111111', 'broadcast', 'authenticated', 'a1111111-1111-4111-8111-111111111111'),
  'the owner cannot broadcast in their public room');
select ok(not pg_temp.may_send('room:b1111111-1111-4111-8111-111111111111', 'broadcast', 'anon'), 'anon cannot broadcast in a public room');

-- realtime.send as a member (e.g. from a SECURITY INVOKER trigger) is refused with a warning, and
-- writes nothing; from the database's own (definer) code it is written.
select pg_temp.act_as('authenticated', 'a2222222-2222-4222-8222-222222222222');
select lives_ok($$ select realtime.send('{"x":1}'::jsonb, 'INSERT', 'room:b2222222-2222-4222-8222-222222222222') $$,
  'realtime.send as a member does not fail the caller''s transaction');
select pg_temp.act_as_superuser();
select is((select count(*)::int from realtime.messages where topic = 'room:b2222222-2222-4222-8222-222222222222' and extension = 'broadcast'), 0,
  '…and sends nothing');
select lives_ok($$ select realtime.send('{"x":2}'::jsonb, 'INSERT', 'room:b2222222-2222-4222-8222-222222222222') $$, 'the database sends on a room topic');
select is((select count(*)::int from realtime.messages where topic = 'room:b2222222-2222-4222-8222-222222222222' and extension = 'broadcast' and private), 1,
  '…a private message');

-- Nobody changes or removes messages
select pg_temp.act_as('authenticated', 'a2222222-2222-4222-8222-222222222222');
select results_eq($$ with changed as (update realtime.messages set payload = '{}' where topic like 'room:%' returning 1) select count(*)::int from changed $$,
  $$ values (0) $$, 'a member updates no room message');
select throws_ok($$ delete from realtime.messages where topic like 'room:%' $$, '42501', null, 'a member cannot delete room messages');
select pg_temp.act_as_superuser();

-- A membership that ends ends receiving (at the channel's next check: join or new token)
delete from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' and user_id = 'a2222222-2222-4222-8222-222222222222';
select is(pg_temp.visible('room:b2222222-2222-4222-8222-222222222222', 'authenticated', 'a2222222-2222-4222-8222-222222222222'), 0,
  'a former member no longer receives on the gated room''s topic');

select * from finish();
rollback;
