-- A second factor covers everything an account controls: an owner or moderator with a verified
-- factor, signed in with a password alone (aal1, REST called directly), can read and take part but
-- cannot rename, move or delete a room, remove members, delete others' content, upload or remove an
-- avatar or cover, or end or hand over a session they do not host; at aal2 they can. An account
-- without a verified factor is not held back.
begin;
create extension if not exists pgtap with schema extensions;
select plan(37);

\ir helpers/roles.psql

-- owner (verified factor), moder (verified factor, moderator), member (no factor), plain (owner, no factor)
insert into auth.users (id, aud, role, email, created_at, updated_at) values
  ('f1000000-0000-4000-8000-000000000001', 'authenticated', 'authenticated', 'aal-owner@example.test', now(), now()),
  ('f1000000-0000-4000-8000-000000000002', 'authenticated', 'authenticated', 'aal-moder@example.test', now(), now()),
  ('f1000000-0000-4000-8000-000000000003', 'authenticated', 'authenticated', 'aal-member@example.test', now(), now()),
  ('f1000000-0000-4000-8000-000000000004', 'authenticated', 'authenticated', 'aal-plain@example.test', now(), now());
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) values
  ('f2000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000001', 'App', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP'),
  ('f2000000-0000-4000-8000-000000000002', 'f1000000-0000-4000-8000-000000000002', 'App', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP');

insert into public.rooms (id, slug, name, owner_id) values
  ('f3000000-0000-4000-8000-000000000001', 'aal-owned', 'Owned', 'f1000000-0000-4000-8000-000000000001'),
  ('f3000000-0000-4000-8000-000000000002', 'aal-plain', 'Plain', 'f1000000-0000-4000-8000-000000000004');
insert into public.memberships (room_id, user_id, role) values
  ('f3000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000002', 'moderator'),
  ('f3000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000003', 'member'),
  ('f3000000-0000-4000-8000-000000000002', 'f1000000-0000-4000-8000-000000000003', 'member'),
  ('f3000000-0000-4000-8000-000000000002', 'f1000000-0000-4000-8000-000000000002', 'member');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('f4000000-0000-4000-8000-000000000001', 'f3000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000003', 'A member''s post', 'embed', 'https://media.example.com/a'),
  ('f4000000-0000-4000-8000-000000000002', 'f3000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000002', 'The moderator''s post', 'embed', 'https://media.example.com/b');
insert into public.moments (id, post_id, author_id, body) values
  ('f5000000-0000-4000-8000-000000000001', 'f4000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000003', 'a member''s comment');
insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('avatars', 'f1000000-0000-4000-8000-000000000001/a.png', 'f1000000-0000-4000-8000-000000000001', '{"size": 10, "mimetype": "image/png"}'),
  ('room-covers', 'f3000000-0000-4000-8000-000000000001/c.png', 'f1000000-0000-4000-8000-000000000001', '{"size": 10, "mimetype": "image/png"}'),
  ('media', 'f3000000-0000-4000-8000-000000000001/f1000000-0000-4000-8000-000000000003/m.mp3', 'f1000000-0000-4000-8000-000000000003', '{"size": 10, "mimetype": "audio/mpeg"}'),
  ('media', 'f3000000-0000-4000-8000-000000000001/f1000000-0000-4000-8000-000000000002/own.mp3', 'f1000000-0000-4000-8000-000000000002', '{"size": 10, "mimetype": "audio/mpeg"}');
insert into public.listening_sessions (id, room_id, started_by, host_id) values
  ('f6000000-0000-4000-8000-000000000001', 'f3000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000003', 'f1000000-0000-4000-8000-000000000003');

-- ---------------------------------------------------------------------------------------------
-- The owner at aal1: reads and takes part, changes nothing they control
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('f1000000-0000-4000-8000-000000000001', 'aal1');
select is((select count(*)::int from public.posts where room_id = 'f3000000-0000-4000-8000-000000000001'), 2, 'the owner at aal1 reads the room''s posts');
select lives_ok($$ insert into public.moments (post_id, author_id, body) values ('f4000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000001', 'from aal1') $$,
  'the owner at aal1 comments');
select is(pg_temp.touched($$ update public.rooms set name = 'Taken over' where id = 'f3000000-0000-4000-8000-000000000001' $$), 0,
  'the owner at aal1 cannot rename the room');
select is(pg_temp.touched($$ update public.rooms set slug = 'moved-away' where id = 'f3000000-0000-4000-8000-000000000001' $$), 0,
  '… nor move it to another address');
select is(pg_temp.touched($$ delete from public.rooms where id = 'f3000000-0000-4000-8000-000000000001' $$), 0,
  '… nor delete it');
select is(pg_temp.touched($$ delete from public.memberships where room_id = 'f3000000-0000-4000-8000-000000000001' and user_id = 'f1000000-0000-4000-8000-000000000003' $$), 0,
  '… nor remove a member');
select is(pg_temp.touched($$ delete from public.posts where id = 'f4000000-0000-4000-8000-000000000001' $$), 0,
  '… nor delete a member''s post');
select is(pg_temp.touched($$ delete from public.moments where id = 'f5000000-0000-4000-8000-000000000001' $$), 0,
  '… nor a member''s comment');
select throws_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('room-covers', 'f3000000-0000-4000-8000-000000000001/new.png', 'f1000000-0000-4000-8000-000000000001') $$,
  '42501', null, '… nor upload a cover');
select is(pg_temp.touched($$ delete from storage.objects where bucket_id = 'room-covers' and name = 'f3000000-0000-4000-8000-000000000001/c.png' $$), 0,
  '… nor remove the cover');
select throws_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('avatars', 'f1000000-0000-4000-8000-000000000001/new.png', 'f1000000-0000-4000-8000-000000000001') $$,
  '42501', null, '… nor upload an avatar');
select is(pg_temp.touched($$ delete from storage.objects where bucket_id = 'avatars' and name = 'f1000000-0000-4000-8000-000000000001/a.png' $$), 0,
  '… nor remove their avatar');
select is(pg_temp.touched($$ delete from storage.objects where bucket_id = 'media' and name like 'f3000000-0000-4000-8000-000000000001/f1000000-0000-4000-8000-000000000003/%' $$), 0,
  '… nor a member''s uploaded file');
select throws_ok($$ select public.end_listening_session('f6000000-0000-4000-8000-000000000001') $$,
  '42501', 'Enter the code from your authenticator app first, then end the session', '… nor end a session someone else hosts, and is told why');
select throws_ok($$ select public.hand_over_session('f6000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000001') $$,
  '42501', 'Enter the code from your authenticator app first, then hand over the session', '… nor hand it over');

-- ---------------------------------------------------------------------------------------------
-- The moderator at aal1: their own things yes, others' no
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('f1000000-0000-4000-8000-000000000002', 'aal1');
select is(pg_temp.touched($$ delete from public.posts where id = 'f4000000-0000-4000-8000-000000000001' $$), 0,
  'a moderator with a factor at aal1 cannot delete a member''s post');
select is(pg_temp.touched($$ delete from public.memberships where room_id = 'f3000000-0000-4000-8000-000000000001' and user_id = 'f1000000-0000-4000-8000-000000000003' $$), 0,
  '… nor remove a member');
select is(pg_temp.touched($$ delete from storage.objects where bucket_id = 'media' and name = 'f3000000-0000-4000-8000-000000000001/f1000000-0000-4000-8000-000000000002/own.mp3' $$), 1,
  '… but removes a file they uploaded themselves');
select is(pg_temp.touched($$ delete from public.posts where id = 'f4000000-0000-4000-8000-000000000002' $$), 1,
  '… and deletes their own post');
select is(pg_temp.touched($$ delete from public.memberships where room_id = 'f3000000-0000-4000-8000-000000000002' and user_id = 'f1000000-0000-4000-8000-000000000002' $$), 1,
  '… and leaves a room themselves');

-- A member without a factor takes part as before.
select pg_temp.act_at('f1000000-0000-4000-8000-000000000003', 'aal1');
select lives_ok($$ insert into public.moments (post_id, author_id, body) values ('f4000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000003', 'plain comment') $$,
  'a member without a factor comments');

-- ---------------------------------------------------------------------------------------------
-- At aal2 they can
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('f1000000-0000-4000-8000-000000000002', 'aal2');
select is(pg_temp.touched($$ delete from public.moments where id = 'f5000000-0000-4000-8000-000000000001' $$), 1,
  'the moderator at aal2 deletes a member''s comment');
select pg_temp.act_at('f1000000-0000-4000-8000-000000000001', 'aal2');
select is(pg_temp.touched($$ update public.rooms set name = 'Renamed at aal2' where id = 'f3000000-0000-4000-8000-000000000001' $$), 1,
  'the owner at aal2 renames the room');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('room-covers', 'f3000000-0000-4000-8000-000000000001/new.png', 'f1000000-0000-4000-8000-000000000001') $$,
  '… uploads a cover');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('avatars', 'f1000000-0000-4000-8000-000000000001/new.png', 'f1000000-0000-4000-8000-000000000001') $$,
  '… and an avatar');
select is(pg_temp.touched($$ delete from storage.objects where bucket_id = 'media' and name like 'f3000000-0000-4000-8000-000000000001/f1000000-0000-4000-8000-000000000003/%' $$), 1,
  '… removes a member''s uploaded file');
select is((public.hand_over_session('f6000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000001')).host_id, 'f1000000-0000-4000-8000-000000000001'::uuid,
  '… takes over the session by handing it to themself');
select pg_temp.act_at('f1000000-0000-4000-8000-000000000001', 'aal1');
select is((public.hand_over_session('f6000000-0000-4000-8000-000000000001', 'f1000000-0000-4000-8000-000000000003')).host_id, 'f1000000-0000-4000-8000-000000000003'::uuid,
  'hosting, the owner at aal1 runs their own session: hands it over');
select pg_temp.act_at('f1000000-0000-4000-8000-000000000001', 'aal2');
select isnt((public.end_listening_session('f6000000-0000-4000-8000-000000000001')).ended_at, null,
  'at aal2 the owner ends a session someone else hosts');
select is(pg_temp.touched($$ delete from public.memberships where room_id = 'f3000000-0000-4000-8000-000000000001' and user_id = 'f1000000-0000-4000-8000-000000000003' $$), 1,
  '… removes a member');
select is(pg_temp.touched($$ delete from public.rooms where id = 'f3000000-0000-4000-8000-000000000001' $$), 1,
  '… and deletes the room');

-- ---------------------------------------------------------------------------------------------
-- Without a verified factor nothing changes
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_at('f1000000-0000-4000-8000-000000000004', 'aal1');
select is(pg_temp.touched($$ update public.rooms set name = 'Plain rename' where id = 'f3000000-0000-4000-8000-000000000002' $$), 1,
  'an owner without a factor renames their room at aal1');
select is(pg_temp.touched($$ delete from public.memberships where room_id = 'f3000000-0000-4000-8000-000000000002' and user_id = 'f1000000-0000-4000-8000-000000000003' $$), 1,
  '… removes a member');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('room-covers', 'f3000000-0000-4000-8000-000000000002/c.png', 'f1000000-0000-4000-8000-000000000004') $$,
  '… uploads a cover');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('avatars', 'f1000000-0000-4000-8000-000000000004/a.png', 'f1000000-0000-4000-8000-000000000004') $$,
  '… and an avatar');
select is(pg_temp.touched($$ delete from public.rooms where id = 'f3000000-0000-4000-8000-000000000002' $$), 1,
  '… and deletes the room');

select pg_temp.act_as_superuser();
select is((select count(*)::int from public.rooms where id in ('f3000000-0000-4000-8000-000000000001', 'f3000000-0000-4000-8000-000000000002')), 0,
  'both rooms are gone, each deleted by a session allowed to');

select * from finish();
rollback;
