-- Timeouts (20261129000300_timeouts.sql): who may time out and lift whom; what a timed-out member
-- may no longer do (post, comment, edit, react, suggest, start, take over or be handed a session)
-- and may still do (read); that a session they host passes on; the refusal's words and DETAIL; who
-- reads timeouts; that a timeout ends by itself; and the log.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(48);

-- o owner (…a), m moderator (…b), h member who hosts (…c), p member (…d), n outsider (…e); a second
-- moderator m2 (…f) of the public room
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('5e000000-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'ls-mod2@example.test', '{"username":"ls_mod2"}', now(), now());
insert into public.memberships (room_id, user_id, role) values
  ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f', 'moderator');
update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000001';
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 3, 'before');

create function pg_temp.logged(what text, person uuid) returns int
language sql as $$ select count(*)::int from public.moderation_log where room_id = '5e100000-0000-4000-8000-000000000001' and action = what and target_user_id = person $$;

-- h hosts the public room's session
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001'));

-- Who may not time out
select pg_temp.act_as('anon');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 60) $$,
  '42501', null, 'anon cannot time anyone out (no execute)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 60) $$,
  '42501', 'Only the room''s owner and moderators can time out people', 'an outsider cannot time anyone out');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 60) $$,
  '42501', 'Only the room''s owner and moderators can time out people', 'a member cannot time anyone out');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000a', 60) $$,
  '42501', 'Nobody can time out the room''s owner', 'a moderator cannot time out the owner');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f', 60) $$,
  '42501', 'Only the owner can time out a moderator', 'a moderator cannot time out another moderator');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000b', 60) $$,
  '22023', 'You can''t time out yourself', 'nobody times themselves out');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 9) $$,
  '22023', 'A timeout lasts from 10 minutes to 28 days', 'a timeout is at least 10 minutes');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 40321) $$,
  '22023', 'A timeout lasts from 10 minutes to 28 days', '…and at most 28 days');
select pg_temp.act_as('service_role');
select throws_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 60) $$,
  '42501', null, 'the service role cannot time anyone out (no execute)');

-- A moderator times out the host for an hour
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select ok((select expires_at between now() + interval '59 minutes' and now() + interval '61 minutes'
           from public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 60, 'flooding')),
  'a moderator times out a member for an hour');
select pg_temp.act_as_superuser();
select is(pg_temp.logged('timeout', '5e000000-0000-4000-8000-00000000000c'), 1, 'the timeout is logged');
select is((pg_temp.row_of('public')).host_id, null, 'the session they hosted waits for another host');
select pg_temp.remember('test.until', (select private.time_words(expires_at) from public.timeouts where user_id = '5e000000-0000-4000-8000-00000000000c'));
select pg_temp.remember('test.iso', (select private.iso_time(expires_at) from public.timeouts where user_id = '5e000000-0000-4000-8000-00000000000c'));

-- The timed-out member writes nothing
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 5, 'spam') $$,
  '42501', format('You''re timed out until %s — you can still read and listen.', current_setting('test.until')), 'a timed-out member cannot comment, and is told until when');
create function pg_temp.refusal_detail() returns text
language plpgsql as $$
declare d text;
begin
  insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 5, 'spam');
  return null;
exception when insufficient_privilege then
  get stacked diagnostics d = pg_exception_detail;
  return d;
end $$;
select is(pg_temp.refusal_detail(), current_setting('test.iso'), 'the refusal''s DETAIL is the end as ISO 8601 UTC, for the app to show in local time');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 'more spam', 'embed', 'https://vimeo.com/9') $$,
  '42501', null, 'a timed-out member cannot post');
select throws_ok($$ update public.posts set title = 'edited spam' where id = '5e200000-0000-4000-8000-000000000001' $$,
  '42501', null, '…nor edit their post');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', '🔥') $$,
  '42501', null, '…nor react');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', null, '…nor suggest to the queue');
select throws_ok($$ select public.claim_session_host(pg_temp.sid('public'), null) $$,
  '42501', null, '…nor take the session back');
select is((select count(*)::int from public.moments where post_id = '5e200000-0000-4000-8000-000000000001'), 1, '…but still reads the comments');
select is((select count(*)::int from public.timeouts), 1, '…and reads their own timeout');
select ok((select timed_out_until > now() and timeout_reason = 'flooding' from public.my_room_standing('5e100000-0000-4000-8000-000000000001')), '…and their standing says until when and why');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c', 5, 'other room') $$,
  'a timeout holds in its room only');
select throws_ok($$ select public.lift_timeout('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', null, 'a timed-out member cannot lift their own timeout');

-- Nobody hands the session to them; another member takes it
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((public.claim_session_host(pg_temp.sid('public'), null)).host_id, '5e000000-0000-4000-8000-00000000000d'::uuid, 'another member takes the session over');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('public'), '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', null, '…and cannot hand it to the timed-out member');
select is(public.end_listening_session(pg_temp.sid('public')) is not null, true, 'the session ends');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000001') $$,
  '42501', null, 'a timed-out member cannot start a session');

-- Who reads timeouts
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.timeouts), 0, 'another member reads no timeouts');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is((select count(*)::int from public.timeouts), 0, 'an outsider reads no timeouts');
select pg_temp.act_as('anon');
select throws_ok($$ select count(*) from public.timeouts $$, '42501', null, 'anon reads no timeouts');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000f');
select is((select count(*)::int from public.timeouts), 1, 'a moderator reads the room''s timeouts');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select is((select count(*)::int from public.timeouts), 1, 'the owner reads the room''s timeouts');
select throws_ok($$ update public.timeouts set expires_at = now() $$, '42501', null, 'nobody changes a timeout directly, not even the owner');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ update public.moments set body = 'moderated' where id = '5e300000-0000-4000-8000-000000000001' $$,
  'others'' edits are not the timed-out member''s (no refusal)');

-- Lift: who may, and the log
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.lift_timeout('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', 'Only the room''s owner and moderators can lift a timeout', 'a member cannot lift a timeout');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000f');
select lives_ok($$ select public.lift_timeout('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c') $$, 'a moderator lifts a timeout');
select throws_ok($$ select public.lift_timeout('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c') $$,
  '22023', 'That person isn''t timed out in this room', 'lifting a timeout that is not there says so');
select pg_temp.act_as_superuser();
select is(pg_temp.logged('timeout_lifted', '5e000000-0000-4000-8000-00000000000c'), 1, 'the lift is logged');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 6, 'back') $$,
  'once lifted, they comment again');

-- The owner times out a moderator; it ends by itself
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.time_out_member('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f', 40320) $$,
  'the owner times out a moderator, for 28 days');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000f');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f', 7, 'mod') $$,
  '42501', null, 'a timed-out moderator cannot comment either');
select pg_temp.act_as_superuser();
select matches((select reason from public.moderation_log where action = 'timeout' and target_user_id = '5e000000-0000-4000-8000-00000000000f'),
  '^\(until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$', 'a timeout without a reason is logged with its end alone');
select matches((select reason from public.moderation_log where action = 'timeout' and target_user_id = '5e000000-0000-4000-8000-00000000000c'),
  '^flooding \(until [^)]+\)$', '…and with one, the reason then its end');
select pg_temp.act_as_superuser();
update public.timeouts set created_at = now() - interval '1 hour', expires_at = now() - interval '1 second';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000f');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f', 7, 'mod') $$,
  'an expired timeout no longer counts');
select is((select timed_out_until from public.my_room_standing('5e100000-0000-4000-8000-000000000001')), null, '…and the standing says so');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.lift_timeout('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000f') $$,
  '22023', null, 'an expired timeout cannot be lifted (it is over)');
select pg_temp.act_as_superuser();
select throws_ok($$ insert into public.timeouts (room_id, user_id, expires_at) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', now() + interval '5 minutes') $$,
  '23514', null, 'the table holds timeouts of 10 minutes or more only');

select * from finish();
rollback;
