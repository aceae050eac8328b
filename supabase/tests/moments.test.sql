-- moments: the constraints and the duration rule, the copied room column, and every role × operation
-- in a public and a gated room (anon, a non-member, the author, another member, a moderator, the
-- owner, a member whose membership lapsed, service_role).
begin;
create extension if not exists pgtap with schema extensions;
select plan(70);

\ir helpers/roles.psql

-- owner o (…a), moderator of the gated room m (…b), author a (…c), other member b (…d),
-- non-member n (…e), lapsed member l (…f: was a member of both rooms, no longer)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000000a-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'mo-owner@example.test', '{"username":"mo_owner"}', now(), now()),
  ('0000000b-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'mo-mod@example.test', '{"username":"mo_mod"}', now(), now()),
  ('0000000c-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'mo-author@example.test', '{"username":"mo_author"}', now(), now()),
  ('0000000d-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'mo-other@example.test', '{"username":"mo_other"}', now(), now()),
  ('0000000e-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'mo-outsider@example.test', '{"username":"mo_outsider"}', now(), now()),
  ('0000000f-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'mo-lapsed@example.test', '{"username":"mo_lapsed"}', now(), now());

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('10000000-0000-4000-8000-000000000001', 'moments-public', 'Public', '0000000a-0000-4000-8000-00000000000a', 'public'),
  ('20000000-0000-4000-8000-000000000002', 'moments-gated', 'Gated', '0000000a-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('20000000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role) values
  ('10000000-0000-4000-8000-000000000001', '0000000b-0000-4000-8000-00000000000b', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000b-0000-4000-8000-00000000000b', 'moderator'),
  ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'member'),
  ('10000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'member'),
  ('10000000-0000-4000-8000-000000000001', '0000000f-0000-4000-8000-00000000000f', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000f-0000-4000-8000-00000000000f', 'member');
select pg_temp.verify_gated_members();

-- p1 public (2 minutes), p2 gated (2 minutes), p3 gated (duration unknown)
insert into public.posts (id, room_id, author_id, title, media_kind, media_url, duration_seconds) values
  ('30000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Public post', 'embed', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 120),
  ('30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Gated post', 'embed', 'https://vimeo.com/76979871', 120),
  ('30000000-0000-4000-8000-000000000003', '20000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'No duration yet', 'embed', 'https://vimeo.com/1', null);

insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('40000000-0000-4000-8000-000000000001', '30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 10, 'public, at 0:10'),
  ('40000000-0000-4000-8000-000000000002', '30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 20, 'gated, at 0:20'),
  ('40000000-0000-4000-8000-000000000003', '30000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', null, 'gated, general'),
  ('40000000-0000-4000-8000-000000000004', '30000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 30, 'for the owner to delete'),
  ('40000000-0000-4000-8000-000000000005', '30000000-0000-4000-8000-000000000002', '0000000f-0000-4000-8000-00000000000f', 40, 'lapsed, gated'),
  ('40000000-0000-4000-8000-000000000006', '30000000-0000-4000-8000-000000000001', '0000000f-0000-4000-8000-00000000000f', 50, 'lapsed, public'),
  ('40000000-0000-4000-8000-000000000007', '30000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', 60, 'public, by the other member');

-- l's membership lapses (a gate recheck or a moderator removed it): their moments stay
delete from public.memberships where user_id = '0000000f-0000-4000-8000-00000000000f';

-- ---------------------------------------------------------------------------------------------
-- Constraints, the duration rule and the copied room (as the superuser: only they decide)
-- ---------------------------------------------------------------------------------------------
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '') $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_body_length"', 'an empty comment is refused');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '    ') $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_body_length"', 'a blank comment is refused');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', E'\n\t \r\n') $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_body_length"', 'a comment of only line breaks and tabs is refused');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', repeat('x', 1001)) $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_body_length"', 'a 1001-character comment is refused');
select lives_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', repeat('é', 1000)) $$,
  'a 1000-character comment is accepted (characters, not bytes)');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', -0.001, 'before the start') $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_at_seconds_range"', 'a negative time is refused');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 120.001, 'past the end') $$,
  '23514', 'That time is past the end of the media', 'a time past the post''s duration is refused');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 120, 'the last second') $$,
  'a time at the very end is accepted');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000003', '0000000d-0000-4000-8000-00000000000d', 5000, 'duration unknown') $$,
  'any time is accepted while the post''s duration is unknown');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000003', '0000000d-0000-4000-8000-00000000000d', 172800.001, 'two days in') $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_at_seconds_range"', 'no time is later than two days, duration or not');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('3fffffff-0000-4000-8000-000000000000', '0000000c-0000-4000-8000-00000000000c', 'on nothing') $$,
  '23503', 'That post no longer exists', 'a comment on a missing post is refused');
select throws_ok($$ update public.moments set at_seconds = 121 where id = '40000000-0000-4000-8000-000000000001' $$,
  '23514', 'That time is past the end of the media', 'moving a moment past the end is refused');
insert into public.moments (id, post_id, room_id, author_id, body) values
  ('40000000-0000-4000-8000-0000000000f0', '30000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'names the wrong room');
select is((select room_id from public.moments where id = '40000000-0000-4000-8000-0000000000f0'), '20000000-0000-4000-8000-000000000002'::uuid,
  'a moment''s room is always its post''s, whatever the writer sent');
select has_index('public', 'moments', 'moments_post_timeline_idx', array['post_id', 'at_seconds', 'id'], 'a post''s moments are indexed in media order');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select isnt_empty($$ select 1 from public.moments where id = '40000000-0000-4000-8000-000000000001' $$, 'anon reads a public room''s moments');
select is_empty($$ select 1 from public.moments where room_id = '20000000-0000-4000-8000-000000000002' $$, 'anon reads nothing of a gated room''s moments');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'anon') $$,
  '42501', 'permission denied for table moments', 'anon cannot comment');
select throws_ok($$ update public.moments set body = 'x' $$, '42501', 'permission denied for table moments', 'anon cannot edit moments');
select throws_ok($$ delete from public.moments $$, '42501', 'permission denied for table moments', 'anon cannot delete moments');

-- ---------------------------------------------------------------------------------------------
-- a signed-in non-member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000e-0000-4000-8000-00000000000e');
select isnt_empty($$ select 1 from public.moments where id = '40000000-0000-4000-8000-000000000001' $$, 'a non-member reads a public room''s moments');
select is_empty($$ select 1 from public.moments where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a non-member reads nothing of a gated room''s moments');
select is_empty($$ select 1 from public.moments where post_id = '30000000-0000-4000-8000-000000000002' $$, 'a non-member reads nothing of a gated post''s moments by its id');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000e-0000-4000-8000-00000000000e', 'drive-by') $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'a non-member cannot comment in a public room');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000002', '0000000e-0000-4000-8000-00000000000e', 5, 'let me in') $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'a non-member cannot comment in a gated room');
select is_empty($$ update public.moments set body = 'x' where id = '40000000-0000-4000-8000-000000000001' returning 1 $$, 'a non-member cannot edit a moment');
select is_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000001' returning 1 $$, 'a non-member cannot delete a moment');

-- ---------------------------------------------------------------------------------------------
-- the author (a member)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.moments where post_id = '30000000-0000-4000-8000-000000000002'), 5, 'a member reads a gated post''s moments');
select throws_ok($$ insert into public.moments (id, post_id, author_id, body) values ('40000000-0000-4000-8000-0000000000c1', '30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'my own id') $$,
  '42501', 'permission denied for table moments', 'a client cannot choose a moment''s id');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 102.5, 'at 1:42') $$,
  'a member comments at a time in a gated room');
select lives_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'in general') $$,
  'a member leaves a general comment');
select is((select room_id from public.moments where body = 'at 1:42'), '20000000-0000-4000-8000-000000000002'::uuid, 'the moment''s room is copied from its post');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'as someone else') $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'a member cannot comment as someone else');
select throws_ok($$ insert into public.moments (post_id, room_id, author_id, body) values ('30000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'forged room') $$,
  '42501', 'permission denied for table moments', 'a client cannot send a moment''s room');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 200, 'past the end') $$,
  '23514', 'That time is past the end of the media', 'a member cannot comment past the end of the media');
select isnt_empty($$ update public.moments set body = 'edited', at_seconds = 21 where id = '40000000-0000-4000-8000-000000000002' returning 1 $$, 'the author edits their moment''s words and time');
select throws_ok($$ update public.moments set at_seconds = 121 where id = '40000000-0000-4000-8000-000000000002' $$,
  '23514', 'That time is past the end of the media', 'the author cannot move their moment past the end');
select throws_ok($$ update public.moments set body = '' where id = '40000000-0000-4000-8000-000000000002' $$,
  '23514', 'new row for relation "moments" violates check constraint "moments_body_length"', 'the author cannot empty their moment');
select throws_ok($$ update public.moments set room_id = '10000000-0000-4000-8000-000000000001' where id = '40000000-0000-4000-8000-000000000002' $$,
  '42501', 'permission denied for table moments', 'the author cannot move a moment to another room');
select throws_ok($$ update public.moments set post_id = '30000000-0000-4000-8000-000000000003' where id = '40000000-0000-4000-8000-000000000002' $$,
  '42501', 'permission denied for table moments', 'the author cannot move a moment to another post');
select throws_ok($$ update public.moments set author_id = '0000000d-0000-4000-8000-00000000000d' where id = '40000000-0000-4000-8000-000000000002' $$,
  '42501', 'permission denied for table moments', 'the author cannot hand a moment to someone else');
select is_empty($$ update public.moments set body = 'hijacked' where id = '40000000-0000-4000-8000-000000000003' returning 1 $$, 'a member cannot edit another member''s moment');
select is_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000003' returning 1 $$, 'a member cannot delete another member''s moment');
select isnt_empty($$ delete from public.moments where body = 'at 1:42' returning 1 $$, 'the author deletes their moment');

-- ---------------------------------------------------------------------------------------------
-- another member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000d-0000-4000-8000-00000000000d');
select isnt_empty($$ select 1 from public.moments where id = '40000000-0000-4000-8000-000000000002' and body = 'edited' $$, 'another member reads the author''s edit');
select is_empty($$ update public.moments set body = 'not mine' where id = '40000000-0000-4000-8000-000000000002' returning 1 $$, 'another member cannot edit it');
select is_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000002' returning 1 $$, 'another member cannot delete it');

-- ---------------------------------------------------------------------------------------------
-- a moderator (of the gated room; a plain member of the public one)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000002', '0000000b-0000-4000-8000-00000000000b', 1, 'a moderator speaks') $$,
  'a moderator comments');
select is_empty($$ update public.moments set body = 'moderated' where id = '40000000-0000-4000-8000-000000000003' returning 1 $$, 'a moderator cannot edit someone''s moment');
select isnt_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000003' returning 1 $$, 'a moderator deletes any moment in their room');
select is_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000007' returning 1 $$, 'a moderator of one room cannot delete moments in another');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000a-0000-4000-8000-00000000000a');
select lives_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000001', '0000000a-0000-4000-8000-00000000000a', 3, 'the owner speaks') $$,
  'the owner comments in their room');
select is_empty($$ update public.moments set body = 'owned' where id = '40000000-0000-4000-8000-000000000004' returning 1 $$, 'the owner cannot edit someone''s moment');
select isnt_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000004' returning 1 $$, 'the owner deletes any moment in their gated room');
select isnt_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000007' returning 1 $$, 'the owner deletes any moment in their public room');

-- ---------------------------------------------------------------------------------------------
-- a member whose membership lapsed
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000f-0000-4000-8000-00000000000f');
select is_empty($$ select 1 from public.moments where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a lapsed member no longer reads the gated room''s moments, their own included');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000002', '0000000f-0000-4000-8000-00000000000f', 'still here?') $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'a lapsed member cannot comment in the gated room');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ('30000000-0000-4000-8000-000000000001', '0000000f-0000-4000-8000-00000000000f', 'still here?') $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'a lapsed member cannot comment in the public room');
select is_empty($$ update public.moments set body = 'changed my mind' where id = '40000000-0000-4000-8000-000000000005' returning 1 $$, 'a lapsed member cannot edit their moment in the gated room');
select is_empty($$ update public.moments set body = 'changed my mind' where id = '40000000-0000-4000-8000-000000000006' returning 1 $$, 'a lapsed member cannot edit their moment in the public room');
select is_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000005' returning 1 $$, 'a lapsed member cannot reach their moment in the gated room to delete it');
select isnt_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000006' returning 1 $$, 'a lapsed member still deletes their own words in the public room');

-- ---------------------------------------------------------------------------------------------
-- service_role (the server): every row, still the constraints and the copied room
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('service_role');
select isnt_empty($$ select 1 from public.moments where id = '40000000-0000-4000-8000-000000000005' $$, 'service_role reads a gated room''s moments');
select lives_ok($$ insert into public.moments (id, post_id, room_id, author_id, body) values ('40000000-0000-4000-8000-0000000000e1', '30000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', 'from the server') $$,
  'service_role writes a moment');
select is((select room_id from public.moments where id = '40000000-0000-4000-8000-0000000000e1'), '20000000-0000-4000-8000-000000000002'::uuid, 'even service_role cannot file a moment under another room');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ('30000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 500, 'past the end') $$,
  '23514', 'That time is past the end of the media', 'service_role is held to the duration rule');
select isnt_empty($$ update public.moments set body = 'server edit' where id = '40000000-0000-4000-8000-0000000000e1' returning 1 $$, 'service_role edits a moment');
select isnt_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000005' returning 1 $$, 'service_role deletes a moment');

-- ---------------------------------------------------------------------------------------------
-- What goes with a moment
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
select ok((select updated_at from public.moments where id = '40000000-0000-4000-8000-000000000002') >= (select created_at from public.moments where id = '40000000-0000-4000-8000-000000000002'),
  'an edit keeps updated_at at or after created_at');
delete from public.posts where id = '30000000-0000-4000-8000-000000000001';
select is_empty($$ select 1 from public.moments where post_id = '30000000-0000-4000-8000-000000000001' $$, 'deleting a post deletes its moments');
delete from public.profiles where id = '0000000d-0000-4000-8000-00000000000d';
select is_empty($$ select 1 from public.moments where author_id = '0000000d-0000-4000-8000-00000000000d' $$, 'deleting a profile deletes its moments');

select * from finish();
rollback;
