-- The ready check: the host's choice kept with the session (only the host sets it, within the
-- choices, a new version so every page has it); readiness recorded as the caller only, by the
-- room's members only, for the room's posts, readable by members only, and told to the session's
-- channel (event `ready`) when it is news.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(37);

create temp table msg (topic text, event text, payload jsonb);
grant all on msg to anon, authenticated, service_role;
-- Moves the session messages sent since the last call into msg (as the superuser); how many.
create function pg_temp.collect() returns int
language plpgsql as $$
declare
  n int;
begin
  perform pg_temp.act_as_superuser();
  truncate msg;
  with gone as (delete from realtime.messages where topic like 'session:%' and extension = 'broadcast' returning *)
  insert into msg select g.topic, g.event, g.payload from gone g;
  get diagnostics n = row_count;
  return n;
end $$;

-- A session in the public room, hosted by h (…c), with p1 loaded.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select null::void from (select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001'))) x;
select null::void from (select public.hand_over_session(pg_temp.sid('public'), '5e000000-0000-4000-8000-00000000000c')) x;

-- ---------------------------------------------------------------------------------------------
-- The host's choice
-- ---------------------------------------------------------------------------------------------
select is((select array[ready_check_seconds::text, ready_check_each_track::text] from pg_temp.row_of('public')), array['10', 'false'],
  'a new session checks before it starts, waiting up to 10 s, not before every track');
select pg_temp.collect();

select pg_temp.act_as('anon');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 5, true) $$,
  '42501', 'permission denied for function set_session_ready_check', 'anon cannot set the ready check');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 5, true) $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 5, true) $$,
  '42501', 'Only the host sets the ready check', 'a member who does not host cannot');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 5, true) $$,
  '42501', 'Only the host sets the ready check', 'nor can the owner while someone else hosts');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 7, true) $$,
  '22023', 'Wait 5, 10 or 30 seconds for everyone, or don''t check', 'the host chooses among the waits offered');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), null, true) $$,
  '22023', 'Wait 5, 10 or 30 seconds for everyone, or don''t check', 'a wait must be given');
select throws_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 30, null) $$,
  '22023', 'Say whether to check before every track', 'and whether to check before every track');
select is(pg_temp.collect(), 0, 'the refusals sent nothing');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select array[r.ready_check_seconds::text, r.ready_check_each_track::text, (r.version = (pg_temp.row_of('public')).version)::text]
           from public.set_session_ready_check(pg_temp.sid('public'), 30, true) r),
  array['30', 'true', 'true'], 'the host waits 30 s, before every track');
select is((select array[ready_check_seconds::text, ready_check_each_track::text, post_id::text, playing::text] from pg_temp.row_of('public')),
  array['30', 'true', '5e200000-0000-4000-8000-000000000001', 'false'], '…kept with the session, the playback as it was');
select is(pg_temp.collect(), 1, 'the choice is a new version of the session, sent on its channel');
select is((select array[event, payload->>'ready_check_seconds', payload->>'ready_check_each_track'] from msg), array['session', '30', 'true'],
  '…so every page, and any later host, has it');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.set_session_ready_check(pg_temp.sid('public'), 0, false) $$, 'the host may switch the check off');
select is((pg_temp.row_of('public')).ready_check_seconds, 0::smallint, '…0 is no ready check');
select pg_temp.act_as('service_role');
select throws_ok($$ update public.listening_sessions set ready_check_seconds = 20 where id = pg_temp.sid('public') $$,
  '23514', 'new row for relation "listening_sessions" violates check constraint "listening_sessions_ready_check_seconds"',
  'the database holds the stored wait to the same choices');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ update public.listening_sessions set ready_check_seconds = 5 where id = pg_temp.sid('public') $$,
  '42501', 'permission denied for table listening_sessions', 'the host cannot write the row around the function');
select pg_temp.collect();

-- ---------------------------------------------------------------------------------------------
-- Readiness
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 0) $$,
  '42501', 'permission denied for function mark_session_ready', 'anon cannot say it is ready');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 0) $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot, even in a public room');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000004', 0) $$,
  '22023', 'That post isn''t in this room', 'a member cannot be ready for another room''s post');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', -1) $$,
  '22023', 'Give the position your player is ready at, in seconds', 'nor at a position before the start');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 'NaN') $$,
  '22023', 'Give the position your player is ready at, in seconds', 'nor at no number');
select is(pg_temp.collect(), 0, 'the refusals sent nothing');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 0) $$,
  'a member says their player is ready for the post at 0');
select is((select array[user_id::text, room_id::text, position_seconds::text] from public.session_readiness where session_id = pg_temp.sid('public')),
  array['5e000000-0000-4000-8000-00000000000d', '5e100000-0000-4000-8000-000000000001', '0'], '…recorded as the caller, in the session''s room');
select is(pg_temp.collect(), 1, '…and told to the session''s channel');
select is((select array[topic, event, payload->>'user_id', payload->>'post_id', payload->>'position_seconds'] from msg),
  array['session:5e100000-0000-4000-8000-000000000001', 'ready', '5e000000-0000-4000-8000-00000000000d', '5e200000-0000-4000-8000-000000000001', '0'],
  '…event "ready", naming who (from their token), which post and where');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 0.2) $$, 'saying it again');
select is(pg_temp.collect(), 0, '…at about the same place is no news: nothing is sent');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select null::void from (select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 42)) x;
select null::void from (select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', 0)) x;
select is(pg_temp.collect(), 2, 'a new position, and another post, are news');
select is((select count(*)::int from public.session_readiness where session_id = pg_temp.sid('public')), 2, 'one row per person and post, the newest position kept');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ insert into public.session_readiness (session_id, room_id, user_id, post_id, position_seconds)
                    values (pg_temp.sid('public'), '5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000b', '5e200000-0000-4000-8000-000000000001', 0) $$,
  '42501', 'permission denied for table session_readiness', 'nobody writes readiness except through the function (never as someone else)');
select throws_ok($$ delete from public.session_readiness $$, '42501', 'permission denied for table session_readiness', 'nor removes it');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is((select count(*)::int from public.session_readiness where session_id = pg_temp.sid('public')), 2, 'the room''s members read who is ready');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is((select count(*)::int from public.session_readiness), 0, 'an outsider reads nothing');
select pg_temp.act_as('anon');
select throws_ok($$ select 1 from public.session_readiness $$, '42501', 'permission denied for table session_readiness', 'anon may not read it');

-- Once the session ends, nobody can say they are ready for it.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select null::void from (select public.end_listening_session(pg_temp.sid('public'))) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 0) $$,
  'PT409', 'This session has ended', 'an ended session takes no readiness');

select * from finish();
rollback;
