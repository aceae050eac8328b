-- The access epoch: a room's channels move to new topics when who may read the room narrows (it is
-- gated; a gated membership ends). The database sends only to the current topics, tells the old
-- ones once (`access`), and the policies admit only the current ones.
begin;
create extension if not exists pgtap with schema extensions;
select plan(24);

\ir helpers/roles.psql

-- o: owner; m and s: members; a room that starts public
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('8a000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'la-owner@example.test', '{"username":"la_owner"}', now(), now()),
  ('8a000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'la-member@example.test', '{"username":"la_member"}', now(), now()),
  ('8a000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'la-stayer@example.test', '{"username":"la_stayer"}', now(), now());
insert into public.rooms (id, slug, name, owner_id) values
  ('8b000000-0000-4000-8000-000000000001', 'la-room', 'Room', '8a000000-0000-4000-8000-00000000000a');
insert into public.memberships (room_id, user_id, verified_at) values
  ('8b000000-0000-4000-8000-000000000001', '8a000000-0000-4000-8000-00000000000b', now()),
  ('8b000000-0000-4000-8000-000000000001', '8a000000-0000-4000-8000-00000000000c', now());
delete from realtime.messages where topic like '%8b000000-0000-4000-8000-000000000001%';

create function pg_temp.sent(topic text) returns text[]
language sql as $$ select coalesce(array_agg(m.event order by m.event), '{}') from realtime.messages m where m.topic = sent.topic $$;
create function pg_temp.epoch() returns int
language sql as $$ select access_epoch from public.rooms where id = '8b000000-0000-4000-8000-000000000001' $$;

select is(pg_temp.epoch(), 0, 'a new room is at epoch 0');
select is(private.current_room_topic('room', '8b000000-0000-4000-8000-000000000001'), 'room:8b000000-0000-4000-8000-000000000001', '…whose topics are the bare ones');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001', 'anon'), 2, 'anyone joins a public room''s channel');

-- The owner gates the room.
select pg_temp.act_as('authenticated', '8a000000-0000-4000-8000-00000000000a');
update public.rooms set visibility = 'gated' where id = '8b000000-0000-4000-8000-000000000001';
select pg_temp.act_as_superuser();
insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('8b000000-0000-4000-8000-000000000001', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
select is(pg_temp.epoch(), 1, 'gating the room moves the epoch on');
select is(pg_temp.sent('room:8b000000-0000-4000-8000-000000000001'), array['access'], 'the old room topic is told once');
select is((select payload - 'id' from realtime.messages where topic = 'room:8b000000-0000-4000-8000-000000000001' and event = 'access'), '{"epoch": 1}'::jsonb, '…where the channel is now');
select is(pg_temp.sent('session:8b000000-0000-4000-8000-000000000001'), array['access'], '…and so is the old session topic');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001', 'anon'), 0, 'the old topic admits nobody, anon included');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001', 'authenticated', '8a000000-0000-4000-8000-00000000000b'), 0, '…nor a member');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001:1', 'anon'), 0, 'the new topic does not admit anon to a gated room');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001:1', 'authenticated', '8a000000-0000-4000-8000-00000000000b'), 2, '…but admits its members');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001:2', 'authenticated', '8a000000-0000-4000-8000-00000000000b'), 0, 'a topic ahead of the epoch admits nobody');
select is(pg_temp.visible('room:8b000000-0000-4000-8000-000000000001:01', 'authenticated', '8a000000-0000-4000-8000-00000000000b'), 0, '…nor one written otherwise (a leading zero)');

insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('8b000000-0000-4000-8000-000000000001', '8a000000-0000-4000-8000-00000000000a', 'Members only', 'embed', 'https://vimeo.com/1');
select is(pg_temp.sent('room:8b000000-0000-4000-8000-000000000001:1'), array['posts'], 'what the room says now goes to the new topic');
select is((select count(*)::int from realtime.messages where topic = 'room:8b000000-0000-4000-8000-000000000001' and event = 'posts'), 0, '…and nothing of it to the old one');

-- A member is removed.
select pg_temp.act_as('authenticated', '8a000000-0000-4000-8000-00000000000a');
delete from public.memberships where room_id = '8b000000-0000-4000-8000-000000000001' and user_id = '8a000000-0000-4000-8000-00000000000b';
select pg_temp.act_as_superuser();
select is(pg_temp.epoch(), 2, 'a gated membership ending moves the epoch on');
select is(pg_temp.sent('room:8b000000-0000-4000-8000-000000000001:1'), array['access', 'memberships', 'posts'], 'the topic the removed member is on hears the membership end and the move');
select is(pg_temp.visible('session:8b000000-0000-4000-8000-000000000001:2', 'authenticated', '8a000000-0000-4000-8000-00000000000c'), 2, 'the member who stays joins the new session topic');
select ok(pg_temp.may_send('room:8b000000-0000-4000-8000-000000000001:2', 'presence', 'authenticated', '8a000000-0000-4000-8000-00000000000c'), '…and shares presence on the new room topic');
select ok(not pg_temp.may_send('room:8b000000-0000-4000-8000-000000000001:1', 'presence', 'authenticated', '8a000000-0000-4000-8000-00000000000c'), '…not on the old one');

-- Editing the post clears its earlier words under every epoch's topic.
update public.posts set title = 'Renamed' where title = 'Members only';
select is((select count(*)::int from realtime.messages where topic like 'room:8b000000-0000-4000-8000-000000000001%' and payload::text like '%Members only%'), 0,
  'an edit removes the earlier words from the older topics too');

-- Widening changes nothing.
select pg_temp.act_as('authenticated', '8a000000-0000-4000-8000-00000000000a');
update public.rooms set visibility = 'public' where id = '8b000000-0000-4000-8000-000000000001';
select pg_temp.act_as_superuser();
delete from public.room_gates where room_id = '8b000000-0000-4000-8000-000000000001';
select is(pg_temp.epoch(), 2, 'making the room public again keeps the epoch');
delete from public.memberships where room_id = '8b000000-0000-4000-8000-000000000001' and user_id = '8a000000-0000-4000-8000-00000000000c';
select is(pg_temp.epoch(), 2, '…and so does a member leaving a public room');

select pg_temp.act_as('authenticated', '8a000000-0000-4000-8000-00000000000a');
select throws_ok($$ update public.rooms set access_epoch = 0 where id = '8b000000-0000-4000-8000-000000000001' $$, '42501', null, 'nobody sets the epoch through the API, not even the owner');
select pg_temp.act_as_superuser();

select * from finish();
rollback;
