-- post_activity and room_activity: the counters the triggers keep (posts, comments, deletes), and
-- who reads them — a gated room's activity only its members, like its posts; nobody writes them.
begin;
create extension if not exists pgtap with schema extensions;
select plan(39);

\ir helpers/roles.psql

-- owner o, moderator m, member a, non-member n
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000000a-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'act-owner@example.test', '{"username":"act_owner"}', now(), now()),
  ('0000000b-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'act-mod@example.test', '{"username":"act_mod"}', now(), now()),
  ('0000000c-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'act-member@example.test', '{"username":"act_member"}', now(), now()),
  ('0000000e-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'act-outsider@example.test', '{"username":"act_outsider"}', now(), now());

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('10000000-0000-4000-8000-000000000001', 'activity-public', 'Public', '0000000a-0000-4000-8000-00000000000a', 'public'),
  ('20000000-0000-4000-8000-000000000002', 'activity-gated', 'Gated', '0000000a-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('20000000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role)
select r.id, u.id, u.role
from (values ('10000000-0000-4000-8000-000000000001'::uuid), ('20000000-0000-4000-8000-000000000002'::uuid)) r (id),
     (values ('0000000b-0000-4000-8000-00000000000b'::uuid, 'moderator'),
             ('0000000c-0000-4000-8000-00000000000c'::uuid, 'member')) u (id, role);
select pg_temp.verify_gated_members();

select has_table('public', 'post_activity', 'post_activity exists');
select has_table('public', 'room_activity', 'room_activity exists');
select is((select relrowsecurity from pg_class where oid = 'public.post_activity'::regclass), true, 'post_activity has RLS');
select is((select relrowsecurity from pg_class where oid = 'public.room_activity'::regclass), true, 'room_activity has RLS');
select has_index('public', 'post_activity', 'post_activity_room_id_idx', array['room_id', 'last_activity_at'], 'post activity is indexed by room (policy and foreign key)');

-- ---------------------------------------------------------------------------------------------
-- The triggers keep count (as the superuser, so only triggers decide)
-- ---------------------------------------------------------------------------------------------
insert into public.posts (id, room_id, author_id, title, media_kind, media_url, created_at) values
  ('30000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Public post', 'embed', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', now() - interval '2 hours'),
  ('30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Gated post', 'embed', 'https://vimeo.com/76979871', now() - interval '2 hours'),
  ('30000000-0000-4000-8000-000000000003', '20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Second gated post', 'embed', 'https://vimeo.com/1', now() - interval '3 hours');

select is((select comment_count from public.post_activity where post_id = '30000000-0000-4000-8000-000000000001'), 0, 'a new post has no comments');
select is((select last_activity_at from public.post_activity where post_id = '30000000-0000-4000-8000-000000000001'),
  (select created_at from public.posts where id = '30000000-0000-4000-8000-000000000001'), 'a new post was last active when it was posted');
select is((select post_count from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002'), 2, 'the room counts its posts');
select is((select last_activity_at from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002'),
  (select max(created_at) from public.posts where room_id = '20000000-0000-4000-8000-000000000002'), 'the room was last active at its newest post');

insert into public.moments (id, post_id, author_id, body, created_at) values
  ('40000000-0000-4000-8000-000000000001', '30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'one', now() - interval '1 hour'),
  ('40000000-0000-4000-8000-000000000002', '30000000-0000-4000-8000-000000000001', '0000000b-0000-4000-8000-00000000000b', 'two', now() - interval '30 minutes'),
  ('40000000-0000-4000-8000-000000000003', '30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'gated one', now() - interval '10 minutes'),
  ('40000000-0000-4000-8000-000000000004', '30000000-0000-4000-8000-000000000002', '0000000b-0000-4000-8000-00000000000b', 'gated two', now() - interval '5 minutes'),
  ('40000000-0000-4000-8000-000000000005', '30000000-0000-4000-8000-000000000002', '0000000a-0000-4000-8000-00000000000a', 'gated three', now() - interval '20 minutes');

select is((select comment_count from public.post_activity where post_id = '30000000-0000-4000-8000-000000000001'), 2, 'each comment is counted');
select is((select comment_count from public.post_activity where post_id = '30000000-0000-4000-8000-000000000002'), 3, 'each comment is counted, per post');
select is((select last_activity_at from public.post_activity where post_id = '30000000-0000-4000-8000-000000000002'),
  (select created_at from public.moments where id = '40000000-0000-4000-8000-000000000004'), 'the post was last active at its newest comment, whatever order they came in');
select is((select last_activity_at from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002'),
  (select created_at from public.moments where id = '40000000-0000-4000-8000-000000000004'), 'the room was last active at its newest comment');

delete from public.moments where id = '40000000-0000-4000-8000-000000000003';
select is((select comment_count from public.post_activity where post_id = '30000000-0000-4000-8000-000000000002'), 2, 'a deleted comment is counted out');
delete from public.posts where id = '30000000-0000-4000-8000-000000000003';
select is((select post_count from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002'), 1, 'a deleted post is counted out of its room');
select is_empty($$ select 1 from public.post_activity where post_id = '30000000-0000-4000-8000-000000000003' $$, 'a deleted post''s activity goes with it');
select lives_ok($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000001' $$, 'a post deletes with its comments and their counts');
select is_empty($$ select 1 from public.post_activity where post_id = '30000000-0000-4000-8000-000000000001' $$, 'and leaves no activity row');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('30000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Public post', 'embed', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'again');

-- ---------------------------------------------------------------------------------------------
-- Who reads them: per role, a public and a gated room
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select is((select comment_count from public.post_activity where post_id = '30000000-0000-4000-8000-000000000001'), 1, 'anon reads a public post''s count');
select isnt_empty($$ select 1 from public.room_activity where room_id = '10000000-0000-4000-8000-000000000001' $$, 'anon reads a public room''s activity');
select is_empty($$ select 1 from public.post_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'anon reads nothing of a gated room''s post activity');
select is_empty($$ select 1 from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'anon reads nothing of a gated room''s activity');
select throws_ok($$ update public.post_activity set comment_count = 99 $$, '42501', 'permission denied for table post_activity', 'anon cannot change a count');

select pg_temp.act_as('authenticated', '0000000e-0000-4000-8000-00000000000e');
select isnt_empty($$ select 1 from public.post_activity where room_id = '10000000-0000-4000-8000-000000000001' $$, 'a non-member reads a public room''s post activity');
select is_empty($$ select 1 from public.post_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a non-member reads nothing of a gated room''s post activity');
select is_empty($$ select 1 from public.post_activity where post_id = '30000000-0000-4000-8000-000000000002' $$, 'nor by its post''s id');
select is_empty($$ select 1 from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a non-member reads nothing of a gated room''s activity');
select throws_ok($$ insert into public.post_activity (post_id, room_id) values ('30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002') $$,
  '42501', 'permission denied for table post_activity', 'a non-member cannot write a count');
select throws_ok($$ update public.room_activity set last_activity_at = now() $$, '42501', 'permission denied for table room_activity', 'a non-member cannot touch a room''s activity');

select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is((select comment_count from public.post_activity where post_id = '30000000-0000-4000-8000-000000000002'), 2, 'a member reads a gated post''s count');
select is((select post_count from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002'), 1, 'a member reads a gated room''s activity');
select throws_ok($$ update public.post_activity set comment_count = 99 $$, '42501', 'permission denied for table post_activity', 'a member cannot change a count');
select throws_ok($$ delete from public.room_activity $$, '42501', 'permission denied for table room_activity', 'a member cannot delete a room''s activity');

select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
select isnt_empty($$ select 1 from public.post_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a moderator reads a gated room''s post activity');
select throws_ok($$ update public.post_activity set comment_count = 0 $$, '42501', 'permission denied for table post_activity', 'a moderator cannot change a count');

select pg_temp.act_as('authenticated', '0000000a-0000-4000-8000-00000000000a');
select isnt_empty($$ select 1 from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'the owner reads a gated room''s activity');
select throws_ok($$ delete from public.post_activity $$, '42501', 'permission denied for table post_activity', 'the owner cannot delete counts');

-- A gated membership that lapses (its check no longer fresh) reads the counts no more.
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - interval '1 day'
  where room_id = '20000000-0000-4000-8000-000000000002' and user_id = '0000000c-0000-4000-8000-00000000000c';
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is_empty($$ select 1 from public.post_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a lapsed member reads nothing of a gated room''s post activity');
select is_empty($$ select 1 from public.room_activity where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a lapsed member reads nothing of a gated room''s activity');

select * from finish();
rollback;
