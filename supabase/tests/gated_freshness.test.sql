-- A gated room's ordinary membership counts only while its balance check is fresh (an hour's
-- re-check plus 15 minutes of grace): a stale member reads and writes nothing of the room on any
-- path — tables, storage, channels, session functions — until a re-check renews it. Owners and
-- moderators are exempt; a public room has nothing to check.
begin;
create extension if not exists pgtap with schema extensions;
select plan(33);

\ir helpers/roles.psql
\ir helpers/session_fixtures.psql

-- o: owner (…a); m: moderator (…b), checked two days ago; h: member (…c), fresh, hosts the session;
-- p: member (…d), checked 80 minutes ago (stale); g (…f): member checked 70 minutes ago (in grace);
-- z (…9): member of the gated room never checked (it was public when they joined)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('5e000000-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'gf-grace@example.test', '{"username":"gf_grace"}', now(), now()),
  ('5e000000-0000-4000-8000-000000000009', 'authenticated', 'authenticated', 'gf-never@example.test', '{"username":"gf_never"}', now(), now());
insert into public.memberships (room_id, user_id, verified_at) values
  ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000f', now() - interval '70 minutes'),
  ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-000000000009', null),
  ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-000000000009', null);
update public.memberships set verified_at = now() - interval '2 days'
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000b';
update public.memberships set verified_at = now() - interval '80 minutes'
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002';

insert into public.moments (post_id, author_id, at_seconds, body) values
  ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c', 12, 'a comment in the gated room');
insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('media', '5e100000-0000-4000-8000-000000000002/5e000000-0000-4000-8000-00000000000c/tone.mp3', '5e000000-0000-4000-8000-00000000000c', '{"size": 10, "mimetype": "audio/mpeg"}');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000004'));
select pg_temp.act_as_superuser();
insert into public.session_queue (session_id, room_id, post_id, added_by)
  values (pg_temp.sid('gated'), '5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000c');

-- How many rows of the gated room a person sees in each table.
create function pg_temp.seen(person uuid, relation text) returns int
language plpgsql as $$
declare n int;
begin
  perform pg_temp.act_as('authenticated', person);
  if relation = 'storage.objects' then
    select count(*)::int into n from storage.objects where bucket_id = 'media' and name like '5e100000-0000-4000-8000-000000000002/%';
  else
    execute format('select count(*)::int from %s where room_id = %L', relation, '5e100000-0000-4000-8000-000000000002') into n;
  end if;
  perform pg_temp.act_as_superuser();
  return n;
end $$;

select is(private.gated_membership_lifetime(), interval '75 minutes', 'a balance check keeps an ordinary member in for the hourly re-check plus 15 minutes of grace');

-- ---------------------------------------------------------------------------------------------
-- Reading: the stale member sees nothing of the room but their own membership
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.posts'), 0, 'a stale member reads no posts');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.moments'), 0, '…no comments');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.listening_sessions'), 0, '…no listening session');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.session_queue'), 0, '…no queue');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'storage.objects'), 0, '…no media (so no signed URLs)');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.memberships'), 1, '…and of the member list only their own row (the app re-checks from it)');
select is(pg_temp.visible('room:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, '…joins neither the room''s channel');
select is(pg_temp.visible('session:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, '…nor the session''s');
select ok(not pg_temp.may_send('room:5e100000-0000-4000-8000-000000000002', 'presence', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), '…and shares no presence');
select is(pg_temp.seen('5e000000-0000-4000-8000-000000000009', 'public.posts'), 0, 'a member never checked (the room was public when they joined) reads nothing');

select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000c', 'public.posts'), 3, 'a fresh member reads the posts');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000f', 'public.posts'), 3, 'a member in the grace after the hour still reads');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000f', 'storage.objects'), 1, '…and the media');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000b', 'public.posts'), 3, 'a moderator is exempt, however old their check');
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000a', 'public.moments'), 1, 'the owner is exempt');

-- ---------------------------------------------------------------------------------------------
-- Writing
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d', 'late', 'embed', 'https://vimeo.com/9') $$,
  '42501', null, 'a stale member cannot post');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 3, 'still here?') $$,
  '42501', null, '…nor comment');
select throws_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('media', '5e100000-0000-4000-8000-000000000002/5e000000-0000-4000-8000-00000000000d/x.mp3', '5e000000-0000-4000-8000-00000000000d') $$,
  '42501', null, '…nor upload');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000006', '5e000000-0000-4000-8000-00000000000d') $$,
  '42501', null, '…nor suggest');
select throws_ok($$ select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', 'Only members of the room can take part in its session', '…nor take part in the session');
select throws_ok($$ select public.start_listening_session('5e100000-0000-4000-8000-000000000002') $$,
  '42501', null, '…nor start one');
select is(pg_temp.touched($$ update public.posts set title = 'renamed' where id = '5e200000-0000-4000-8000-000000000005' $$), 0, '…nor edit their own post');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-000000000009');
select lives_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-000000000009', 'open', 'embed', 'https://vimeo.com/8') $$,
  'a public room''s member posts without any check');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000f');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000f', 3, 'in the grace') $$,
  'a member in the grace comments');

-- ---------------------------------------------------------------------------------------------
-- The session: a stale host hosts nothing; the session goes only to someone who counts
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.hand_over_session(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000d') $$,
  '23503', 'That person isn''t a member of this room', 'nobody hands the session to a stale member');
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - interval '80 minutes'
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is(pg_temp.touched($$ update public.session_queue set sort_key = sort_key + 1 where session_id = pg_temp.sid('gated') $$), 0,
  'a host whose check went stale no longer orders the queue');
select throws_ok($$ select public.session_heartbeat(pg_temp.sid('gated')) $$, '42501', 'Only members of the room can take part in its session',
  '…nor says they are still there');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000f');
select is((select (s).host_id from (select public.claim_session_host(pg_temp.sid('gated'), '5e000000-0000-4000-8000-00000000000c') as s) x),
  '5e000000-0000-4000-8000-00000000000f'::uuid, 'a member takes over from a stale host at once, though the host was just seen');

-- ---------------------------------------------------------------------------------------------
-- A re-check renews: everything is back
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now()
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
delete from realtime.messages where topic like 'room:%'; -- the comments' broadcasts meanwhile are not what is counted
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.posts'), 3, 'renewed, the member reads the room again');
select is(pg_temp.visible('room:5e100000-0000-4000-8000-000000000002', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 2, '…and joins its channel');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000d', 4, 'back') $$,
  '…and comments');
select pg_temp.act_as_superuser();
select is(pg_temp.seen('5e000000-0000-4000-8000-00000000000d', 'public.memberships'), 6, '…and its member list');

select * from finish();
rollback;
