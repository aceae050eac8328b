-- Moments made during a listening session carry its id: only a live session of the moment's room,
-- playing the moment's post; the stamp cannot be changed afterwards, and outlives the session.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(16);

update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000004'));
select null::void from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 100, true)) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001'));

-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 102, 'at 1:42, live', pg_temp.sid('gated')) $$,
  'a member comments during the session on the post it plays');
select is((select session_id from public.moments where body = 'at 1:42, live'), pg_temp.sid('gated'), '…the moment carries the session');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 5, 'no session') $$,
  'a moment without a session is as before');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 5, 'other post', pg_temp.sid('gated')) $$,
  'PT409', 'That post isn''t playing in the session any more', 'a moment on a post the session is not playing is refused');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 5, 'other room', pg_temp.sid('public')) $$,
  '23503', 'That session isn''t in this room', 'a moment cannot name another room''s session');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 5, 'no such session', '5e3fffff-0000-4000-8000-000000000000') $$,
  '23503', 'That session isn''t in this room', 'nor a session that does not exist');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 301, 'past the end', pg_temp.sid('gated')) $$,
  '23514', 'That time is past the end of the media', 'a session''s moment keeps the duration rule');
select throws_ok($$ update public.moments set session_id = null where body = 'at 1:42, live' $$,
  '42501', 'permission denied for table moments', 'the stamp cannot be changed afterwards');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000e', 5, 'drive-by', pg_temp.sid('public')) $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'an outsider comments in no session');
select pg_temp.act_as('anon');
select throws_ok($$ insert into public.moments (post_id, author_id, body, session_id) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000e', 'anon', pg_temp.sid('public')) $$,
  '42501', 'permission denied for table moments', 'nor does anon');

-- The host moves on: moments now go with the new post.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select null::void from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', 0, true)) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 120, 'too late', pg_temp.sid('gated')) $$,
  'PT409', 'That post isn''t playing in the session any more', 'a moment on the post that just stopped playing is refused');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 1, 'on the new one', pg_temp.sid('gated')) $$,
  '…and accepted on the one now playing');

-- Ended: no more moments in it; the stamps stay, and outlive the session's row.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select null::void from (select public.end_listening_session(pg_temp.sid('gated'))) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 2, 'after the end', pg_temp.sid('gated')) $$,
  'PT409', 'This session has ended', 'an ended session takes no moments');
select pg_temp.act_as('service_role');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body, session_id) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 2, 'from the server', pg_temp.sid('gated')) $$,
  'PT409', 'This session has ended', 'nor from the service role');
select is((select count(*)::int from public.moments where session_id = pg_temp.sid('gated')), 2, 'the session''s moments keep their stamp');
select pg_temp.act_as_superuser();
delete from public.listening_sessions where id = pg_temp.sid('gated');
select is((select count(*)::int from public.moments where body in ('at 1:42, live', 'on the new one') and session_id is null), 2, 'a deleted session leaves its moments, unstamped');

select * from finish();
rollback;
