-- A session's channel, `session:{room id}`: who may receive and share presence (the policies on
-- realtime.messages, as Realtime applies them), that nobody broadcasts there, and what the database
-- sends: event `session` (the row) for each new version, `host` for each heartbeat; event `queue`
-- (broadcast_changes' payload) for each queue change; nothing for what does not commit.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(51);

-- A member of the public room only (f, …f).
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('5e000000-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'ls-elsewhere@example.test', '{"username":"ls_elsewhere"}', now(), now());
insert into public.memberships (room_id, user_id) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f');

-- The session messages written since the last call, oldest first (and forgets them).
create function pg_temp.taken() returns setof realtime.messages
language sql as $$
  with gone as (delete from realtime.messages where topic like 'session:%' and extension = 'broadcast' returning *)
  select * from gone order by inserted_at, id;
$$;
create temp table msg (topic text, event text, private boolean, payload jsonb);
grant all on msg to anon, authenticated, service_role;
-- Moves what was sent into msg (as the superuser), and says how many messages that was.
create function pg_temp.collect() returns int
language plpgsql as $$
declare
  n int;
begin
  perform pg_temp.act_as_superuser();
  truncate msg;
  insert into msg select m.topic, m.event, m.private, m.payload from pg_temp.taken() m;
  get diagnostics n = row_count;
  return n;
end $$;

delete from realtime.messages where topic like 'session:%';

-- ---------------------------------------------------------------------------------------------
-- Receiving: the room's members only, public room or not
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 2, 'a member receives on a gated room''s session topic');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000b'), 2, 'a moderator does');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000a'), 2, 'the owner does');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000e'), 0, 'an outsider does not');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'anon'), 0, 'anon does not');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000f'), 0, 'a member of another room does not');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000001', 'authenticated', '5e000000-0000-4000-8000-00000000000f'), 2, 'a member receives on a public room''s session topic');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000001', 'authenticated', '5e000000-0000-4000-8000-00000000000e'), 0, 'a public room''s session is still members only: an outsider does not receive');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000001', 'anon'), 0, 'nor does anon');
select is(pg_temp.visible('session:not-a-uuid', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, 'a malformed session topic is refused, not an error');
select is(pg_temp.visible('session:5E100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, 'the topic names the room as written (lowercase)');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002:x', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, 'nothing after the room id');
select is(pg_temp.visible('session:5e1fffff-0000-4000-8000-000000000000', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, 'nobody receives on a room that does not exist');


-- ---------------------------------------------------------------------------------------------
-- Presence: members only. Broadcast: nobody.
-- ---------------------------------------------------------------------------------------------
select ok(pg_temp.may_send('session:5e100000-0000-4000-8000-000000000002', 'presence', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 'a member shares presence');
select ok(pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'presence', 'authenticated', '5e000000-0000-4000-8000-00000000000a'), 'the owner shares presence in a public room''s session');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'presence', 'authenticated', '5e000000-0000-4000-8000-00000000000e'), 'an outsider shares no presence in a public room''s session');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000002', 'presence', 'authenticated', '5e000000-0000-4000-8000-00000000000f'), 'a member of another room shares none');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'presence', 'anon'), 'anon shares none');
select ok(not pg_temp.may_send('session:not-a-uuid', 'presence', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 'none on a malformed topic');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001'));
select pg_temp.act_as_superuser();
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'broadcast', 'authenticated', '5e000000-0000-4000-8000-00000000000b'), 'the host cannot broadcast on the session topic');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'broadcast', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 'a member cannot');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'broadcast', 'authenticated', '5e000000-0000-4000-8000-00000000000a'), 'the owner cannot');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'broadcast', 'authenticated', '5e000000-0000-4000-8000-00000000000e'), 'an outsider cannot');
select ok(not pg_temp.may_send('session:5e100000-0000-4000-8000-000000000001', 'broadcast', 'anon'), 'anon cannot');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select results_eq($$ with changed as (update realtime.messages set payload = '{}' where topic like 'session:%' returning 1) select count(*)::int from changed $$,
  $$ values (0) $$, 'the host rewrites no session message');

-- ---------------------------------------------------------------------------------------------
-- What the database sends
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
select is(pg_temp.collect(), 1, 'starting a session sends one message');
select is((select array[topic, event, private::text] from msg), array['session:5e100000-0000-4000-8000-000000000001', 'session', 'true'],
  '…event "session", private, on the room''s session topic');
select is((select payload - 'state_at' - 'host_seen_at' - 'started_at' from msg),
  (select to_jsonb(s) - 'state_at' - 'host_seen_at' - 'started_at' from public.listening_sessions s where s.id = pg_temp.sid('public')),
  '…its payload is the session''s row');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select null::void from (select public.set_session_playback(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 42, true)) x;
select is(pg_temp.collect(), 1, 'a playback change sends one message');
select is((select array[payload->>'version', payload->>'position_seconds', payload->>'playing'] from msg), array['2', '42', 'true'], '…the new version of the row');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select null::void from (select public.session_heartbeat(pg_temp.sid('public'))) x;
select is(pg_temp.collect(), 1, 'a heartbeat sends one message (no new version of the row)');
select is((select array[topic, event, private::text, payload->>'session_id', payload->>'host_id'] from msg),
  array['session:5e100000-0000-4000-8000-000000000001', 'host', 'true', pg_temp.sid('public')::text, '5e000000-0000-4000-8000-00000000000b'],
  '…event "host", naming the session and its host: the server''s fact that the host''s page is there');
select ok((select (payload->>'seen_at')::timestamptz = s.host_seen_at from msg, public.listening_sessions s where s.id = pg_temp.sid('public')), '…seen when host_seen_at says');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select null::void from (select public.release_session_host(pg_temp.sid('public'))) x;
select is(pg_temp.collect(), 0, 'a release sends nothing');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select null::void from (select public.claim_session_host(pg_temp.sid('public'), '5e000000-0000-4000-8000-00000000000b')) x;
select is(pg_temp.collect(), 1, 'a new host sends one message');
select is((select array[payload->>'version', payload->>'host_id'] from msg), array['3', '5e000000-0000-4000-8000-00000000000d'], '…the row with its new host');

-- the queue
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d');
select is(pg_temp.collect(), 1, 'a queued post sends one message');
select is((select array[topic, event, payload->>'operation', payload->>'table', payload->>'schema', payload->'record'->>'post_id', payload->'record'->>'status', (payload->'old_record' = 'null'::jsonb)::text] from msg),
  array['session:5e100000-0000-4000-8000-000000000001', 'queue', 'INSERT', 'session_queue', 'public', '5e200000-0000-4000-8000-000000000002', 'queued', 'true'],
  '…event "queue": INSERT with the row (broadcast_changes'' payload)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
update public.session_queue set sort_key = 7 where session_id = pg_temp.sid('public');
select null::void from (select pg_temp.collect()) x;
select is((select array[payload->>'operation', payload->'record'->>'sort_key', payload->'old_record'->>'sort_key'] from msg), array['UPDATE', '7', '1'], 'a reorder: UPDATE with both rows');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select null::void from (select public.play_next_in_session(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001')) x;
select is(pg_temp.collect(), 2, 'next: two messages');
select is((select array_agg(event || ' ' || coalesce(payload->>'operation', payload->>'post_id') order by event) from msg),
  array['queue DELETE', 'session 5e200000-0000-4000-8000-000000000002'], '…the entry leaves the queue and the session plays it');

-- a rolled-back change sends nothing
select pg_temp.act_as_superuser();
savepoint before_change;
update public.listening_sessions set playing = false where id = pg_temp.sid('public');
rollback to savepoint before_change;
select is(pg_temp.collect(), 0, 'a rolled-back change sends nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', -5, true) $$,
  '23514', null, 'a refused change…');
select is(pg_temp.collect(), 0, '…sends nothing');

-- a claim on a session nobody has hosted for over 2 minutes ends it, and says so on the channel
select pg_temp.act_as_superuser();
savepoint idle;
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '3 minutes' where id = pg_temp.sid('public');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select null::void from (select public.claim_session_host(pg_temp.sid('public'), '5e000000-0000-4000-8000-00000000000d')) x;
select is(pg_temp.collect(), 1, 'an idle session ended by a claim: one message');
select is((select array[(payload->>'ended_at' is not null)::text, payload->>'playing'] from msg), array['true', 'false'], '…the row, ended and paused');
rollback to savepoint idle;

-- the playing post deleted, then the session ended
select pg_temp.act_as_superuser();
delete from public.posts where id = '5e200000-0000-4000-8000-000000000002';
select is(pg_temp.collect(), 1, 'the playing post deleted: one message');
select is((select array[payload->>'post_id', payload->>'playing'] from msg), array[null, 'false'], '…the session paused with nothing loaded');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select null::void from (select public.end_listening_session(pg_temp.sid('public'))) x;
select is(pg_temp.collect(), 1, 'ending sends one message');
select ok((select payload->>'ended_at' is not null from msg), '…the row, ended');

-- A membership that ends ends receiving (the room's channels also move on: live_access.test.sql)
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, 'a former member no longer receives');

select * from finish();
rollback;
