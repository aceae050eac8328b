-- A change of someone's standing is announced on the room's live channel
-- (20261129001000_standing_is_announced.sql): time_out_member and lift_timeout each leave one private
-- broadcast, event "standing", on the room's current topic (its access epoch included), carrying
-- the room's and the person's ids and nothing else: never the reason, the length or who gave it.
-- A refused call (not a moderator) or a rolled-back one leaves nothing.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(15);

-- The standing messages written since the last call, oldest first (and forgets them).
create function pg_temp.standing_taken() returns setof realtime.messages
language sql as $$
  with gone as (delete from realtime.messages where event = 'standing' returning *)
  select * from gone order by inserted_at, id;
$$;
create temp table msg (topic text, event text, extension text, private boolean, payload jsonb);
grant all on msg to anon, authenticated, service_role;
create function pg_temp.take() returns int
language plpgsql as $$
declare
  n int;
begin
  perform pg_temp.act_as_superuser();
  truncate msg;
  insert into msg select m.topic, m.event, m.extension, m.private, m.payload from pg_temp.standing_taken() m;
  select count(*)::int into n from msg;
  return n;
end $$;

delete from realtime.messages where event = 'standing';

-- The owner times out the member p (…d) in the public room, with a reason.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 60, 'secret words for the log') $$,
  'the owner times out a member');
select is(pg_temp.take(), 1, 'a timeout leaves exactly one standing message');
select is((select array[topic, event, extension, private::text] from msg),
  array['room:5e100000-0000-4000-8000-000000000001', 'standing', 'broadcast', 'true'],
  'on time out: a private broadcast on the room''s topic, event "standing"');
select is((select payload - 'id' from msg),
  '{"room_id":"5e100000-0000-4000-8000-000000000001","user_id":"5e000000-0000-4000-8000-00000000000d"}'::jsonb,
  'on time out: the payload is the room''s and the person''s ids (and the message''s own id), nothing else');
select is((select array(select jsonb_object_keys(payload) order by 1) from msg), array['id', 'room_id', 'user_id'], 'on time out: its keys are id, room_id, user_id');
select is((select position('secret' in payload::text) from msg), 0, 'on time out: the reason is not in the message');

-- The timed-out person themselves reads the room's channel (they are still a member).
select pg_temp.act_as_superuser();
delete from realtime.messages where topic = 'room:5e100000-0000-4000-8000-000000000001';
select is(pg_temp.visible('room:5e100000-0000-4000-8000-000000000001', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 2,
  'the timed-out member still joins the room''s channel, where the message goes');

-- A moderator lifts it.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select public.lift_timeout('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d') $$,
  'a moderator lifts the timeout');
select is(pg_temp.take(), 1, 'a lift leaves exactly one standing message');
select is((select array[topic, event, extension, private::text] from msg),
  array['room:5e100000-0000-4000-8000-000000000001', 'standing', 'broadcast', 'true'],
  'on lift: a private broadcast on the room''s topic, event "standing"');
select is((select payload - 'id' from msg),
  '{"room_id":"5e100000-0000-4000-8000-000000000001","user_id":"5e000000-0000-4000-8000-00000000000d"}'::jsonb,
  'on lift: the payload is the room''s and the person''s ids (and the message''s own id), nothing else');

-- A refused call says nothing.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 60, 'no') $$,
  '42501', null, 'a member cannot time out another');
select is(pg_temp.take(), 0, 'a refused timeout leaves no standing message');

-- A room whose access narrowed: the message goes to its current topic (with the epoch).
select pg_temp.act_as_superuser();
update public.rooms set access_epoch = 3 where id = '5e100000-0000-4000-8000-000000000002';
delete from realtime.messages where event = 'access';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select public.time_out_member('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000c', 10, 'gated reason');
select is(pg_temp.take(), 1, 'a timeout in a gated room leaves one standing message');
select is((select array[topic, payload->>'user_id', position('gated reason' in payload::text)::text] from msg),
  array['room:5e100000-0000-4000-8000-000000000002:3', '5e000000-0000-4000-8000-00000000000c', '0'],
  'on the room''s current topic (its access epoch), naming the person, without the reason');

select * from finish();
rollback;
