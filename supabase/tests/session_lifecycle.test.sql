-- A session's life (20261128000200_sessions_that_end_and_offer_the_room.sql): it starts with the
-- room's recent posts queued; a session nobody follows (no host heartbeat, no page in it, for two
-- minutes) ends when anyone reads the room's live sessions, starts one or claims it; live_sessions
-- shows each role only the sessions of rooms it may read; a claim that loses answers who hosts.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select pg_temp.verify_gated_members();
select plan(32);

-- The fixture's posts, newest first: p1, p2, p3 in the public room; p4, p5, p6 in the gated one.
select pg_temp.act_as_superuser();
update public.posts set created_at = now() - (right(id::text, 1)::int * interval '1 minute') where id::text like '5e200000-%';

-- ---------------------------------------------------------------------------------------------
-- Starting with the room's recent posts queued
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001', null, 21) $$,
  '22023', 'A new session queues between 0 and 20 of the room''s posts', 'at most 20 recent posts are queued');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001', null, -1) $$,
  '22023', 'A new session queues between 0 and 20 of the room''s posts', 'a negative count is refused');
select is_empty($$ select 1 from public.listening_sessions where room_id = '5e100000-0000-4000-8000-000000000001' $$, 'the refusals started nothing');
select lives_ok($$ select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000002', 10)) $$,
  'a moderator starts a session with p2 loaded and the room''s recent posts queued');
select results_eq($$ select post_id, status, added_by from public.session_queue where session_id = pg_temp.sid('public') order by sort_key $$,
  $$ values ('5e200000-0000-4000-8000-000000000001'::uuid, 'queued', '5e000000-0000-4000-8000-00000000000b'::uuid),
            ('5e200000-0000-4000-8000-000000000003'::uuid, 'queued', '5e000000-0000-4000-8000-00000000000b'::uuid) $$,
  'the room''s other posts are queued by the host, newest first; the loaded post is not queued again');
select is_empty($$ select 1 from public.session_queue q join public.posts p on p.id = q.post_id
                  where q.session_id = pg_temp.sid('public') and p.room_id <> '5e100000-0000-4000-8000-000000000001' $$,
  'no other room''s post is queued');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002', null, 2)) $$,
  'the owner starts one in the gated room asking for two posts');
select results_eq($$ select post_id from public.session_queue where session_id = pg_temp.sid('gated') order by sort_key $$,
  $$ values ('5e200000-0000-4000-8000-000000000004'::uuid), ('5e200000-0000-4000-8000-000000000005'::uuid) $$,
  '…the two newest are queued');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001', null, 5) $$,
  '42501', 'Join the room to start a session', 'an outsider queues nothing');
select pg_temp.act_as('anon');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001', null, 5) $$,
  '42501', 'permission denied for function start_listening_session', 'nor anon');

-- ---------------------------------------------------------------------------------------------
-- Who reads the live sessions
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select results_eq($$ select room_id from public.live_sessions(array['5e100000-0000-4000-8000-000000000001', '5e100000-0000-4000-8000-000000000002']::uuid[]) $$,
  $$ values ('5e100000-0000-4000-8000-000000000001'::uuid) $$, 'a visitor reads a public room''s session, not a gated room''s');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select results_eq($$ select room_id from public.live_sessions(array['5e100000-0000-4000-8000-000000000001', '5e100000-0000-4000-8000-000000000002']::uuid[]) $$,
  $$ values ('5e100000-0000-4000-8000-000000000001'::uuid) $$, 'so does an outsider');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.live_sessions(array['5e100000-0000-4000-8000-000000000001', '5e100000-0000-4000-8000-000000000002']::uuid[])),
  2, 'a member reads both');
select is((select array[host_id::text, listeners::text] from public.live_sessions(array['5e100000-0000-4000-8000-000000000001']::uuid[])),
  array['5e000000-0000-4000-8000-00000000000b', '0'], '…with its host and nobody listening yet');
select lives_ok($$ select public.mark_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000d1', pg_temp.sid('public')) $$,
  'a member opens the session');
select is((select listeners from public.live_sessions(array['5e100000-0000-4000-8000-000000000001']::uuid[])), 1, '…and counts as listening');
select throws_ok($$ select public.live_sessions(array(select gen_random_uuid() from generate_series(1, 101))) $$,
  '22023', 'Ask about at most 100 rooms at a time', 'at most 100 rooms per call');
select is((select count(*)::int from public.live_sessions(array[]::uuid[])), 0, 'no rooms, no sessions');
select throws_ok($$ select private.end_session_if_over('5e100000-0000-4000-8000-000000000001') $$,
  '42501', null, 'nobody calls the ending itself');
select throws_ok($$ select private.session_is_over(s) from public.listening_sessions s $$,
  '42501', null, 'nor the rule');

-- ---------------------------------------------------------------------------------------------
-- A session nobody follows ends
-- ---------------------------------------------------------------------------------------------
-- The host quiet for over 2 minutes, but a member's page is in the session: it goes on.
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '3 minutes' where id = pg_temp.sid('public');
select pg_temp.act_as('anon');
select is((select count(*)::int from public.live_sessions(array['5e100000-0000-4000-8000-000000000001']::uuid[])), 1,
  'a quiet host with a follower still here: the session is on');
select is((select ended_at from pg_temp.row_of('public')), null, '…and not ended');
-- Everyone has gone for over 2 minutes: the first read ends it.
select pg_temp.act_as_superuser();
update public.presence set seen_at = clock_timestamp() - interval '150 seconds' where session_id = pg_temp.sid('public');
select pg_temp.remember('test.version', (select version::text from pg_temp.row_of('public')));
select pg_temp.act_as('anon');
select is((select count(*)::int from public.live_sessions(array['5e100000-0000-4000-8000-000000000001']::uuid[])), 0,
  'nobody followed it for over 2 minutes: a visitor''s read finds no session on');
select is((select array[(ended_at is not null)::text, playing::text, version::text] from pg_temp.row_of('public')),
  array['true', 'false', (current_setting('test.version')::bigint + 1)::text], '…it ended, paused, as a new version (the open pages hear of it)');
select pg_temp.act_as_superuser();
select ok((select ended_at = greatest(s.started_at, s.host_seen_at, (select max(p.seen_at) from public.presence p where p.session_id = s.id)) from pg_temp.row_of('public') s),
  '…ended when it was last heard from (its last listener, its host), never before it started');

-- A read that may not see the room ends nothing there.
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '3 minutes' where id = pg_temp.sid('gated');
select pg_temp.act_as('anon');
select is((select count(*)::int from public.live_sessions(array['5e100000-0000-4000-8000-000000000002']::uuid[])), 0, 'a visitor reads nothing of the gated room…');
select is((select ended_at from pg_temp.row_of('gated')), null, '…and ends nothing there');

-- Starting: a session nobody follows makes way; one with a follower does not.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select public.mark_here('5e100000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-0000000000d2', pg_temp.sid('gated')) $$,
  'a member is in the gated session');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000002') $$,
  'PT409', 'A session is already on in this room — join it', 'a session with a follower is still on, though its host is quiet');

-- Claiming: a quiet host with a follower is replaced; nobody following ends it instead.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000a') as s) x),
  '5e000000-0000-4000-8000-00000000000d'::uuid, 'the follower takes the quiet host''s place');
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '3 minutes' where id = pg_temp.sid('gated');
update public.presence set seen_at = clock_timestamp() - interval '150 seconds' where session_id = pg_temp.sid('gated');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select (s).ended_at is not null from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') as s) x),
  true, 'a claim on a session nobody follows answers it ended, without an error');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000002') $$, 'and a new one starts');

select * from finish();
rollback;
