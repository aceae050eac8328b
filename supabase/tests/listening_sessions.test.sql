-- Listening sessions: every function that changes one, as anon, an outsider, a member, the host, a
-- moderator, the owner and the service role, with the error each refusal says; the versions the
-- changes make; the host's place when the host goes quiet or leaves; who reads a session.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(130);

-- ---------------------------------------------------------------------------------------------
-- Starting
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  '42501', 'permission denied for function start_listening_session', 'anon cannot start a session');
select pg_temp.act_as('service_role');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  '42501', 'Sign in to listen together', 'the service role (no person) cannot start a session');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  '42501', 'Join the room to start a session', 'an outsider cannot start a session, even in a public room');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  '42501', 'Only the owner and moderators can start a session in this room', 'a member cannot start one while the room leaves it to moderators');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000004') $$,
  '23503', 'That post isn''t in this room', 'a session cannot start with another room''s post');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e2fffff-0000-4000-8000-000000000000') $$,
  '23503', 'That post isn''t in this room', 'a session cannot start with a post that does not exist');
select is_empty($$ select 1 from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000001' $$, 'the refusals started nothing');

select lives_ok($$ select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001')) $$,
  'a moderator starts a session with a post loaded');
select is((select array[host_id::text, started_by::text, post_id::text, playing::text, position_seconds::text, rate::text, version::text, (ended_at is null)::text] from pg_temp.row_of('public')),
  array['5e000000-0000-4000-8000-00000000000b', '5e000000-0000-4000-8000-00000000000b', '5e200000-0000-4000-8000-000000000001', 'false', '0', '1', '1', 'true'],
  'the starter hosts it, the post loaded, paused at 0, version 1');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  'PT409', 'A session is already on in this room — join it', 'one live session per room: the owner''s second start is a conflict');

-- The owner lets every member start sessions in the gated room; a moderator may not decide it.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002' $$,
  '42501', 'Only the owner decides who may start listening sessions', 'a moderator cannot change who may start sessions');
select lives_ok($$ update public.rooms set name = 'Gated, renamed' where id = '5e100000-0000-4000-8000-000000000002' $$, '…while editing the rest of the room');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is_empty($$ update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002' returning 1 $$, 'a member changes no room');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ update public.rooms set session_starters = 'everyone' where id = '5e100000-0000-4000-8000-000000000002' $$,
  '23514', 'new row for relation "rooms" violates check constraint "rooms_session_starters"', 'only moderators or members');
select lives_ok($$ update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002' $$, 'the owner lets members start sessions');
select pg_temp.act_as('service_role');
select lives_ok($$ update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002' $$, 'the service role may set it too');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002')) $$,
  'a member starts a session where members may');
select is((select array[host_id::text, coalesce(post_id::text, 'none'), playing::text] from pg_temp.row_of('gated')),
  array['5e000000-0000-4000-8000-00000000000c', 'none', 'false'], 'the member hosts it, nothing loaded yet');

-- A session nobody has hosted for over 2 minutes is over: a new start ends it and takes its place.
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '3 minutes', started_at = now() - interval '10 minutes'
  where id = pg_temp.sid('public');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select pg_temp.keep('public 2', public.start_listening_session('5e100000-0000-4000-8000-000000000001')) $$,
  'a session quiet for 3 minutes makes way for a new one');
select is((select array[(ended_at is not null)::text, playing::text, (ended_at = host_seen_at)::text] from pg_temp.row_of('public')), array['true', 'false', 'true'],
  'the stale session ended when its host was last seen');
select is((select host_id from pg_temp.row_of('public 2')), '5e000000-0000-4000-8000-00000000000a'::uuid, 'the new session is the owner''s');
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '119 seconds' where id = pg_temp.sid('public 2');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  'PT409', 'A session is already on in this room — join it', 'a host quiet for under 2 minutes still holds the room''s session');

-- ---------------------------------------------------------------------------------------------
-- Ending (the gated room's session, hosted by member h)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$ select public.end_listening_session(pg_temp.sid('gated')) $$,
  '42501', 'permission denied for function end_listening_session', 'anon cannot end a session');
select pg_temp.act_as('service_role');
select throws_ok($$ select public.end_listening_session(pg_temp.sid('gated')) $$,
  '42501', 'Only members of the room can take part in its session', 'the service role ends no session through the function');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.end_listening_session(pg_temp.sid('gated')) $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot end a session');
select throws_ok($$ select public.end_listening_session('5e3fffff-0000-4000-8000-000000000000') $$,
  '42501', 'Only members of the room can take part in its session', 'a session that does not exist reads as one you cannot take part in');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.end_listening_session(pg_temp.sid('gated')) $$,
  '42501', 'Only the host, moderators and the owner can end the session', 'a member who does not host cannot end it');
select is((select ended_at from pg_temp.row_of('gated')), null, 'the refusals ended nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is((select (s).ended_at is not null from (select public.end_listening_session(pg_temp.sid('gated')) as s) e), true, 'a moderator ends a member''s session');
select is((select array[playing::text, version::text] from pg_temp.row_of('gated')), array['false', '2'], 'ended: paused, a new version');
select is((select (s).version from (select public.end_listening_session(pg_temp.sid('gated')) as s) e), 2::bigint, 'ending an ended session changes nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002')) $$, 'after it ended, a new one starts');
select is((select (s).ended_at is not null from (select public.end_listening_session(pg_temp.sid('gated')) as s) e), true, 'the host ends their own session');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002')) $$, 'another member starts one');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select is((select (s).ended_at is not null from (select public.end_listening_session(pg_temp.sid('gated')) as s) e), true, 'the owner ends it');

-- The session the rest of this file plays with: in the gated room, hosted by member h.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000004')) $$,
  'the host starts a session with p4 loaded');

-- ---------------------------------------------------------------------------------------------
-- Playback: only the host
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) $$,
  '42501', 'permission denied for function set_session_playback', 'anon controls no playback');
select pg_temp.act_as('service_role');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) $$,
  '42501', 'Sign in to listen together', 'the service role controls no playback');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider controls no playback');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) $$,
  '42501', 'Only the host controls playback', 'a member who does not host controls no playback');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) $$,
  '42501', 'Only the host controls playback', 'a moderator does not control playback either');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) $$,
  '42501', 'Only the host controls playback', 'nor does the owner');
select is((select array[version::text, playing::text] from pg_temp.row_of('gated')), array['1', 'false'], 'the refusals changed nothing');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select array[(s).playing::text, (s).position_seconds::text, (s).version::text] from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 10, true) as s) x),
  array['true', '10', '2'], 'the host plays p4 from 0:10: a new version');
select is((select (s).position_seconds from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 500, false) as s) x),
  300::double precision, 'a position past the end is clamped to the post''s duration');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', -1, true) $$,
  '23514', 'new row for relation "listening_sessions" violates check constraint "listening_sessions_position_range"', 'a negative position is refused');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 1, true, 2.5) $$,
  '23514', 'new row for relation "listening_sessions" violates check constraint "listening_sessions_rate_range"', 'a rate above 2× is refused');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 1, true, 0.25) $$,
  '23514', 'new row for relation "listening_sessions" violates check constraint "listening_sessions_rate_range"', 'a rate below 0.5× is refused');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', null, true) $$,
  '22023', 'Give a position, whether it plays, and a rate', 'a missing position is refused');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 1, null) $$,
  '22023', 'Give a position, whether it plays, and a rate', 'a missing playing flag is refused');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), null, 0, true) $$,
  '22023', 'Choose a post to play', 'playing without a post is refused');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000001', 0, true) $$,
  '23503', 'That post isn''t in this room', 'another room''s post cannot play here');
select is((select array[position_seconds::text, playing::text, version::text] from pg_temp.row_of('gated')), array['300', 'false', '3'], 'the bad inputs changed nothing');
select is((select array[coalesce((s).post_id::text, 'none'), (s).position_seconds::text, (s).playing::text] from (select public.set_session_playback(pg_temp.sid('gated'), null, 42, false) as s) x),
  array['none', '0', 'false'], 'the host unloads the post: nothing plays, at 0');
select is((select (s).position_seconds from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 12.345, true, 1.5) as s) x),
  12.345::double precision, 'fractions of a second are kept');
select is((select rate from pg_temp.row_of('gated')), 1.5::double precision, 'and the rate');

-- `at`: the host's estimate of the server's time when they acted, unless it is implausible.
select pg_temp.remember('test.at', (clock_timestamp() - interval '2 seconds')::text);
select is((select (s).state_at from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 20, true, 1, current_setting('test.at')::timestamptz) as s) x),
  current_setting('test.at')::timestamptz, 'a plausible `at` (2 s ago) is the state''s time');
select pg_temp.remember('test.at', (clock_timestamp() - interval '10 seconds')::text);
select ok((select (s).state_at > current_setting('test.at')::timestamptz + interval '9 seconds' from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 20, true, 1, current_setting('test.at')::timestamptz) as s) x),
  'an `at` 10 s ago is implausible: the server''s now is used');
select pg_temp.remember('test.at', (clock_timestamp() + interval '1 minute')::text);
select ok((select (s).state_at < current_setting('test.at')::timestamptz - interval '55 seconds' from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 20, true, 1, current_setting('test.at')::timestamptz) as s) x),
  'an `at` a minute ahead is implausible: the server''s now is used');
select ok((select state_at <= clock_timestamp() and state_at > clock_timestamp() - interval '5 seconds' from pg_temp.row_of('gated')), 'no `at`: the server''s now');
select ok((select host_seen_at > clock_timestamp() - interval '5 seconds' from pg_temp.row_of('gated')), 'a playback change counts as the host being here');

-- Playing a queued post takes it off the queue.
insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', 0, true) $$, 'the host plays a queued post');
select is_empty($$ select 1 from public.session_queue where session_id = pg_temp.sid('gated') $$, '…and it leaves the queue');

-- ---------------------------------------------------------------------------------------------
-- Next in the queue
-- ---------------------------------------------------------------------------------------------
insert into public.session_queue (session_id, post_id, added_by) values
  (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c'),
  (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000006', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005') $$,
  '42501', 'Only the host controls playback', 'a member who does not host cannot skip');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005') $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot skip');
select pg_temp.act_as('anon');
select throws_ok($$ select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005') $$,
  '42501', 'permission denied for function play_next_in_session', 'anon cannot skip');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('gated')));
select is((select array[(s).post_id::text, (s).position_seconds::text, (s).playing::text] from (select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005') as s) x),
  array['5e200000-0000-4000-8000-000000000004', '0', 'true'], 'next: the first queued post plays from the start');
select is((select array_agg(post_id) from public.session_queue where session_id = pg_temp.sid('gated')), array['5e200000-0000-4000-8000-000000000006'::uuid], '…and leaves the queue; the rest stays');
select is((select (s).post_id from (select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005') as s) x),
  '5e200000-0000-4000-8000-000000000004'::uuid, 'a second "next" after the same post (button and media end) changes nothing');
select is((select version from pg_temp.row_of('gated')), current_setting('test.version')::bigint + 1, '…one new version for the two');
select is((select (s).post_id from (select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004') as s) x),
  '5e200000-0000-4000-8000-000000000006'::uuid, 'next again: the following post');
select is((select array[(s).post_id::text, (s).playing::text] from (select public.play_next_in_session(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000006') as s) x),
  array['5e200000-0000-4000-8000-000000000006', 'false'], 'next with an empty queue pauses on the last post');
select ok((select position_seconds between 0 and 100 from pg_temp.row_of('gated')), '…where it had got to, within the media');

-- ---------------------------------------------------------------------------------------------
-- Heartbeat: the host's page says it is there; no new version
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '4 seconds' where id = pg_temp.sid('gated');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('gated')));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select ok((select public.session_heartbeat(pg_temp.sid('gated')) > clock_timestamp() - interval '1 second'), 'the heartbeat answers the server''s time');
select ok((select host_seen_at > clock_timestamp() - interval '1 second' from pg_temp.row_of('gated')), '…and records that the host is here');
select is((select version from pg_temp.row_of('gated')), current_setting('test.version')::bigint, '…without a new version');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.session_heartbeat(pg_temp.sid('gated')) $$, '42501', 'Only the host''s page sends heartbeats', 'a member who does not host sends no heartbeat');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.session_heartbeat(pg_temp.sid('gated')) $$, '42501', 'Only members of the room can take part in its session', 'nor does an outsider');
select pg_temp.act_as('anon');
select throws_ok($$ select public.session_heartbeat(pg_temp.sid('gated')) $$, '42501', 'permission denied for function session_heartbeat', 'nor anon');

-- ---------------------------------------------------------------------------------------------
-- Claiming the host's place
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') as s) x),
  '5e000000-0000-4000-8000-00000000000c'::uuid, 'a member cannot take the place of a host who is still here: the answer names the host (no error)');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000b') as s) x),
  '5e000000-0000-4000-8000-00000000000c'::uuid, 'a claim that expects another host changes nothing and names who hosts');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot claim it');
select pg_temp.act_as('anon');
select throws_ok($$ select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', 'permission denied for function claim_session_host', 'nor anon');

select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '6 seconds' where id = pg_temp.sid('gated');
create temp table before_claim as select * from public.listening_sessions where id = pg_temp.sid('gated');
grant select on before_claim to authenticated;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000b') as s) x),
  '5e000000-0000-4000-8000-00000000000c'::uuid, 'a quiet host: a claim naming the wrong host still takes nothing');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') as s) x),
  '5e000000-0000-4000-8000-00000000000d'::uuid, 'a host quiet for over 5 s: a member takes the place');
select is((select array[s.post_id::text, s.position_seconds::text, s.playing::text, s.rate::text, (s.state_at = b.state_at)::text, s.version::text]
           from pg_temp.row_of('gated') s, before_claim b),
  (select array[post_id::text, position_seconds::text, playing::text, rate::text, 'true', (version + 1)::text] from before_claim),
  'the claim keeps the playback as it was (nobody''s playback stops) and is a new version');
select is((select (s).version from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') as s) x),
  (select version + 1 from before_claim), 'claiming one''s own place changes nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') as s) x),
  '5e000000-0000-4000-8000-00000000000d'::uuid, 'the old host cannot take it back while the new one is here');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 0, true) $$,
  '42501', 'Only the host controls playback', 'the old host no longer controls playback');

-- A host who is no longer a member may be replaced at once.
select pg_temp.act_as_superuser();
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') as s) x),
  '5e000000-0000-4000-8000-00000000000c'::uuid, 'a host who left the room is replaced though just seen');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.session_heartbeat(pg_temp.sid('gated')) $$, '42501', 'Only members of the room can take part in its session', 'the former member is out of the session');
select pg_temp.act_as_superuser();
insert into public.memberships (room_id, user_id, verified_at) values ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d', now());

-- Releasing: the host's page closes, and the place may be claimed at once.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select public.release_session_host(pg_temp.sid('gated')) $$, 'a member who does not host may call release…');
select ok((select host_seen_at > clock_timestamp() - interval '5 seconds' from pg_temp.row_of('gated')), '…and it releases nothing');
select pg_temp.act_as('anon');
select throws_ok($$ select public.release_session_host(pg_temp.sid('gated')) $$, '42501', 'permission denied for function release_session_host', 'anon cannot release');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('gated')));
select lives_ok($$ select public.release_session_host(pg_temp.sid('gated')) $$, 'the host releases the place as the page closes');
select is((select version from pg_temp.row_of('gated')), current_setting('test.version')::bigint, '…no new version (presence tells the others)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') as s) x),
  '5e000000-0000-4000-8000-00000000000b'::uuid, 'a moderator claims the released place at once');

-- Nobody hosting for over 2 minutes: the session is over, and a claim ends it (in a savepoint, so
-- the rest of the file goes on with it live).
select pg_temp.act_as_superuser();
savepoint idle;
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '121 seconds' where id = pg_temp.sid('gated');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('gated')));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select array[((s).ended_at is not null)::text, (s).playing::text, (s).host_id::text] from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000a') as s) x),
  array['true', 'false', '5e000000-0000-4000-8000-00000000000b'],
  'a claim on a session idle for over 2 minutes (whoever it names) ends it: paused, its host unchanged');
select is((select array[(ended_at = greatest(host_seen_at, started_at))::text, version::text] from pg_temp.row_of('gated')), array['true', (current_setting('test.version')::bigint + 1)::text],
  '…ended when its host was last seen, as a new version (the pages learn it is over)');
select is((select (s).ended_at is not null and (s).host_id = '5e000000-0000-4000-8000-00000000000b' from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000b') as s) x),
  true, '…and a later claim takes nothing: it answers the ended row');
select pg_temp.act_as_superuser();
rollback to savepoint idle;

-- ---------------------------------------------------------------------------------------------
-- Handing over (host now the moderator m)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') $$,
  '42501', 'Only the host, moderators and the owner can hand the session over', 'a member who does not host cannot hand it to themselves');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000e') $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot hand it over');
select pg_temp.act_as('anon');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000e') $$,
  '42501', 'permission denied for function hand_over_session', 'nor anon');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000e') $$,
  '23503', 'That person isn''t a member of this room', 'the host cannot hand it to an outsider');
select is((select (s).host_id from (select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') as s) x),
  '5e000000-0000-4000-8000-00000000000d'::uuid, 'the host hands over to a member');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is((select (s).host_id from (select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') as s) x),
  '5e000000-0000-4000-8000-00000000000c'::uuid, 'a moderator who does not host hands it over');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('gated')));
select is((select (s).host_id from (select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000a') as s) x),
  '5e000000-0000-4000-8000-00000000000a'::uuid, 'the owner hands it to themselves');
select is((select version from pg_temp.row_of('gated')), current_setting('test.version')::bigint + 1, 'a new host is a new version');

-- ---------------------------------------------------------------------------------------------
-- The playing post deleted: the session pauses with nothing loaded
-- ---------------------------------------------------------------------------------------------
select lives_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', 30, true) $$, 'the owner (host now) plays p5');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('gated')));
select isnt_empty($$ delete from public.posts where id = '5e200000-0000-4000-8000-000000000005' returning 1 $$, 'the owner deletes the playing post');
select is((select array[coalesce(post_id::text, 'none'), playing::text, position_seconds::text, (ended_at is null)::text] from pg_temp.row_of('gated')),
  array['none', 'false', '0', 'true'], 'the session goes on, paused, with nothing loaded');
select is((select version from pg_temp.row_of('gated')), current_setting('test.version')::bigint + 1, '…as a new version');

-- ---------------------------------------------------------------------------------------------
-- Ended sessions refuse changes
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.end_listening_session(pg_temp.sid('gated')) $$, 'the owner ends the session');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 0, true) $$, 'PT409', 'This session has ended', 'an ended session plays nothing');
select throws_ok($$ select public.play_next_in_session(pg_temp.sid('gated'), null) $$, 'PT409', 'This session has ended', 'nor skips');
select throws_ok($$ select public.session_heartbeat(pg_temp.sid('gated')) $$, 'PT409', 'This session has ended', 'nor takes heartbeats');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') $$, 'PT409', 'This session has ended', 'nor changes hands');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select (s).ended_at is not null and (s).host_id is distinct from '5e000000-0000-4000-8000-00000000000c' from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000a') as s) x),
  true, 'nor can be claimed (the answer is the ended row)');

-- ---------------------------------------------------------------------------------------------
-- Who reads sessions; nobody writes them but the functions
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select isnt_empty($$ select 1 from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000001' $$, 'anon reads a public room''s sessions');
select is_empty($$ select 1 from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000002' $$, 'anon reads none of a gated room''s');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select isnt_empty($$ select 1 from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000001' $$, 'an outsider reads a public room''s sessions');
select is_empty($$ select 1 from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000002' $$, 'an outsider reads none of a gated room''s');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000002'), 4, 'a member reads the gated room''s sessions, ended ones too');
select throws_ok($$ update public.listening_sessions set playing = true $$, '42501', 'permission denied for table listening_sessions', 'a member cannot write a session''s row');
select throws_ok($$ insert into public.listening_sessions (room_id, host_id) values ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d') $$,
  '42501', 'permission denied for table listening_sessions', 'nor insert one');
select throws_ok($$ delete from public.listening_sessions $$, '42501', 'permission denied for table listening_sessions', 'nor delete one');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ update public.listening_sessions set host_id = '5e000000-0000-4000-8000-00000000000a' $$, '42501', 'permission denied for table listening_sessions', 'nor can the owner');
select pg_temp.act_as('anon');
select throws_ok($$ update public.listening_sessions set playing = true $$, '42501', 'permission denied for table listening_sessions', 'nor anon');
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.listening_sessions where room_id in ('5e100000-0000-4000-8000-000000000001', '5e100000-0000-4000-8000-000000000002')), 6, 'the service role reads every session');
select pg_temp.act_as('anon');
select ok(public.server_clock_ms() between extract(epoch from clock_timestamp()) * 1000 - 1000 and extract(epoch from clock_timestamp()) * 1000 + 1000, 'anyone reads the server''s clock, in ms');
select pg_temp.act_as_superuser();

select * from finish();
rollback;
