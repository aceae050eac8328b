-- Replays: a session's history is written by the database alone (a stretch per state of the
-- playback, closed when the next begins or the session ends), read exactly by whoever may read the
-- room, and the room page's list of replays counts only what the caller may see.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(39);

-- ---------------------------------------------------------------------------------------------
-- Nobody but the database writes it
-- ---------------------------------------------------------------------------------------------
select table_privs_are('public', 'session_history', 'anon', array['SELECT'], 'anon only reads the history');
select table_privs_are('public', 'session_history', 'authenticated', array['SELECT'], 'people only read the history');
select table_privs_are('public', 'session_history', 'service_role', array['SELECT'], 'the service role only reads the history');
select policies_are('public', 'session_history', array['A session''s history is readable by whoever may read the room'],
  'one policy: reading, with the room''s rule');

-- ---------------------------------------------------------------------------------------------
-- A gated room's session: p4 loaded, played, a comment, p5, two more comments (held, hidden), ended
-- ---------------------------------------------------------------------------------------------
update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000004'));
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 1,
  'starting with a post loaded opens its first stretch');
select null::void from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', 0, true)) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.moments (post_id, author_id, at_seconds, body, session_id)
  values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 3, 'replay: shown', pg_temp.sid('gated'));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.reactions (moment_id, user_id, emoji)
  select id, '5e000000-0000-4000-8000-00000000000c', '🔥' from public.moments where body = 'replay: shown';
-- A heartbeat is not playback: no new stretch.
select null::void from (select public.session_heartbeat(pg_temp.sid('gated'))) x;
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 2,
  'play adds a stretch; a heartbeat adds none');
select null::void from (select public.set_session_playback(pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', 0, true)) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.moments (post_id, author_id, at_seconds, body, session_id)
  values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 1, 'replay: held', pg_temp.sid('gated')),
         ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 2, 'replay: hidden', pg_temp.sid('gated'));
select pg_temp.act_as_superuser();
update public.moments set held_at = now() where body = 'replay: held';
update public.moments set hidden_at = now() where body = 'replay: hidden';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select null::void from (select public.end_listening_session(pg_temp.sid('gated'))) x;

select pg_temp.act_as_superuser();
select results_eq(
  $$ select post_id, position_seconds, playing, played_by from public.session_history where session_id = pg_temp.sid('gated') order by started_at, id $$,
  $$ values ('5e200000-0000-4000-8000-000000000004'::uuid, 0::double precision, false, '5e000000-0000-4000-8000-00000000000c'::uuid),
            ('5e200000-0000-4000-8000-000000000004'::uuid, 0::double precision, true, '5e000000-0000-4000-8000-00000000000c'::uuid),
            ('5e200000-0000-4000-8000-000000000005'::uuid, 0::double precision, true, '5e000000-0000-4000-8000-00000000000c'::uuid) $$,
  'the history is the session''s stretches in order: the post, where from, playing, and who hosted');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated') and ended_at is null), 0,
  'an ended session leaves no stretch open');
select is((select max(ended_at) from public.session_history where session_id = pg_temp.sid('gated')),
  (select ended_at from public.listening_sessions where id = pg_temp.sid('gated')),
  'the last stretch ends when the session did');
select ok((select bool_and(h.ended_at = h.next_start) from (
    select ended_at, lead(started_at) over (order by started_at, id) as next_start
    from public.session_history where session_id = pg_temp.sid('gated')) h where h.next_start is not null),
  'each stretch ends as the next begins');

-- A public room's session, for visitors.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001'));
select null::void from (select public.set_session_playback(pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000001', 10, true)) x;
select null::void from (select public.end_listening_session(pg_temp.sid('public'))) x;

-- ---------------------------------------------------------------------------------------------
-- Writes, by anyone: refused
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ insert into public.session_history (session_id, room_id, post_id, started_at, position_seconds, playing, rate)
  values (pg_temp.sid('gated'), '5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000006', now(), 0, true, 1) $$,
  '42501', 'permission denied for table session_history', 'the host cannot add to the history');
select throws_ok($$ update public.session_history set position_seconds = 50 where session_id = pg_temp.sid('gated') $$,
  '42501', 'permission denied for table session_history', '…nor change it');
select throws_ok($$ delete from public.session_history where session_id = pg_temp.sid('gated') $$,
  '42501', 'permission denied for table session_history', '…nor remove from it');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ delete from public.session_history where session_id = pg_temp.sid('gated') $$,
  '42501', 'permission denied for table session_history', 'nor can the room''s owner');
select pg_temp.act_as('anon');
select throws_ok($$ insert into public.session_history (session_id, room_id, post_id, started_at, position_seconds, playing, rate)
  values (pg_temp.sid('public'), '5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000002', now(), 0, true, 1) $$,
  '42501', 'permission denied for table session_history', 'nor anon');
select pg_temp.act_as('service_role');
select throws_ok($$ insert into public.session_history (session_id, room_id, post_id, started_at, position_seconds, playing, rate)
  values (pg_temp.sid('public'), '5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000002', now(), 0, true, 1) $$,
  '42501', 'permission denied for table session_history', 'nor the service role');
select throws_ok($$ update public.session_history set ended_at = null $$,
  '42501', 'permission denied for table session_history', 'the service role changes nothing either');

-- ---------------------------------------------------------------------------------------------
-- Reads: whoever may read the room
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('public')), 2, 'a visitor reads a public room''s history');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 0, '…not a gated room''s');
select is((select count(*)::int from public.session_replays('5e100000-0000-4000-8000-000000000001')), 1, 'a visitor sees a public room''s replay listed');
select is((select count(*)::int from public.session_replays('5e100000-0000-4000-8000-000000000002')), 0, '…and no gated room''s');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 3, 'a member reads the gated room''s history');
select results_eq($$ select tracks, comments from public.session_replays('5e100000-0000-4000-8000-000000000002') $$,
  $$ values (2, 3) $$, 'the member''s list: two tracks; their own comments, held and hidden ones too');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select results_eq($$ select tracks, comments from public.session_replays('5e100000-0000-4000-8000-000000000002') $$,
  $$ values (2, 1) $$, 'another member counts only the comment shown to everyone');
select results_eq($$ select m.body from public.moments m where m.session_id = pg_temp.sid('gated') $$,
  $$ values ('replay: shown') $$, '…and reads only that one of the session''s comments');
select is((select count(*)::int from public.reactions r join public.moments m on m.id = r.moment_id where m.session_id = pg_temp.sid('gated')), 1,
  '…with its reaction');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select results_eq($$ select comments from public.session_replays('5e100000-0000-4000-8000-000000000002') $$,
  $$ values (3) $$, 'a moderator counts the held and hidden comments they review');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 0, 'someone who is not a member reads none of it');
select is((select count(*)::int from public.session_replays('5e100000-0000-4000-8000-000000000002')), 0, '…and sees no replay listed');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('public')), 2, '…but reads a public room''s');

-- A lapsed member: their balance check is too old to count.
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - interval '3 hours'
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 0, 'a lapsed member reads none of it');
select is((select count(*)::int from public.session_replays('5e100000-0000-4000-8000-000000000002')), 0, '…and sees no replay listed');

-- A banned member (the host of that session, banned since).
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select null::void from (select public.ban_member('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000c', 'replay test')) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 0, 'a banned member reads none of it, though they hosted it');
select is((select count(*)::int from public.moments where session_id = pg_temp.sid('gated')), 0, '…nor its comments');

-- ---------------------------------------------------------------------------------------------
-- A deleted post leaves every replay
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
delete from public.posts where id = '5e200000-0000-4000-8000-000000000005';
select is((select count(*)::int from public.session_history where session_id = pg_temp.sid('gated')), 2, 'deleting a post removes its stretches');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select results_eq($$ select tracks from public.session_replays('5e100000-0000-4000-8000-000000000002') $$,
  $$ values (1) $$, 'the replay lists one track now');

-- A post hidden by reports stays out of the replay for those it is hidden from, not its moderators.
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now()
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
update public.posts set hidden_at = now() where id = '5e200000-0000-4000-8000-000000000004';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select results_eq($$ select tracks from public.session_replays('5e100000-0000-4000-8000-000000000002') $$,
  $$ values (0) $$, 'a member counts no track of a hidden post');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select results_eq($$ select tracks from public.session_replays('5e100000-0000-4000-8000-000000000002') $$,
  $$ values (1) $$, '…a moderator still does');

-- A live session is not a replay yet.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('again', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000002'));
select pg_temp.act_as('anon');
select is((select count(*)::int from public.session_replays('5e100000-0000-4000-8000-000000000001')), 1, 'a live session is not listed as a replay');

select * from finish();
rollback;
