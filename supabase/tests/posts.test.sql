-- posts: the constraints, the upload-before-post rule, and every role × operation in a public and
-- a gated room (anon, a non-member, the author, another member, a moderator, the owner, service_role).
begin;
create extension if not exists pgtap with schema extensions;
select plan(54);

\ir helpers/roles.psql

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('media', 'media', false, 52428800, array['audio/*', 'video/*'])
on conflict (id) do nothing;

-- owner o, moderator m, author a, other member b, non-member n
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000000a-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'post-owner@example.test', '{"username":"post_owner"}', now(), now()),
  ('0000000b-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'post-mod@example.test', '{"username":"post_mod"}', now(), now()),
  ('0000000c-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'post-author@example.test', '{"username":"post_author"}', now(), now()),
  ('0000000d-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'post-other@example.test', '{"username":"post_other"}', now(), now()),
  ('0000000e-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'post-outsider@example.test', '{"username":"post_outsider"}', now(), now());

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('10000000-0000-4000-8000-000000000001', 'posts-public', 'Public', '0000000a-0000-4000-8000-00000000000a', 'public'),
  ('20000000-0000-4000-8000-000000000002', 'posts-gated', 'Gated', '0000000a-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('20000000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role)
select r.id, u.id, u.role
from (values ('10000000-0000-4000-8000-000000000001'::uuid), ('20000000-0000-4000-8000-000000000002'::uuid)) r (id),
     (values ('0000000b-0000-4000-8000-00000000000b'::uuid, 'moderator'),
             ('0000000c-0000-4000-8000-00000000000c'::uuid, 'member'),
             ('0000000d-0000-4000-8000-00000000000d'::uuid, 'member')) u (id, role);
select pg_temp.verify_gated_members();

insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('30000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Public post', 'embed', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'),
  ('30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Gated post', 'embed', 'https://vimeo.com/76979871'),
  ('30000000-0000-4000-8000-000000000003', '20000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'Other''s gated post', 'embed', 'https://vimeo.com/1'),
  ('30000000-0000-4000-8000-000000000004', '20000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'For the owner', 'embed', 'https://vimeo.com/2');

-- ---------------------------------------------------------------------------------------------
-- Constraints (as the superuser, so only constraints and triggers decide)
-- ---------------------------------------------------------------------------------------------
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '', 'embed', 'https://x.example.com/a') $$,
  '%posts_title_length%', 'an empty title is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '   ', 'embed', 'https://x.example.com/a') $$,
  '%posts_title_length%', 'a blank title is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', repeat('t', 121), 'embed', 'https://x.example.com/a') $$,
  '%posts_title_length%', 'a 121-character title is refused');
select lives_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', repeat('t', 120), 'embed', 'https://x.example.com/a') $$,
  'a 120-character title is accepted');
select throws_like($$ insert into public.posts (room_id, author_id, title, body, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', repeat('b', 2001), 'embed', 'https://x.example.com/a') $$,
  '%posts_body_length%', 'a 2001-character body is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed', 'javascript:alert(1)') $$,
  '%posts_media_url_https%', 'a javascript: URL is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed', 'http://x.test/a.mp3') $$,
  '%posts_media_url_https%', 'a plain-http URL is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed', 'data:audio/mp3;base64,AAAA') $$,
  '%posts_media_url_https%', 'a data: URL is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed') $$,
  '%posts_media_source%', 'a link post needs its link');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url, storage_path) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'upload', 'https://x.example.com/a', '10000000-0000-4000-8000-000000000001/0000000c-0000-4000-8000-00000000000c/a.mp3') $$,
  '%posts_media_source%', 'an upload post has no link');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'stream', 'https://x.example.com/a') $$,
  '%posts_media_kind%', 'an unknown media kind is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed', 'https://x.example.com/a', -1) $$,
  '%posts_duration_positive%', 'a negative duration is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url, embed) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed', 'https://x.example.com/a', '{"html":"<iframe>"}') $$,
  '%posts_embed_is_metadata%', 'embed metadata never carries raw HTML');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'upload', '10000000-0000-4000-8000-000000000001/0000000d-0000-4000-8000-00000000000d/a.mp3') $$,
  '%posts_storage_path_in_own_folder%', 'an upload post points into its author''s own folder of the room');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'upload', '10000000-0000-4000-8000-000000000001/0000000c-0000-4000-8000-00000000000c/missing.mp3') $$,
  '%upload has not finished%', 'an upload post needs its file to exist in the media bucket');
insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('media', '10000000-0000-4000-8000-000000000001/0000000c-0000-4000-8000-00000000000c/song.mp3', '0000000c-0000-4000-8000-00000000000c', '{"size": 10, "mimetype": "audio/mpeg"}');
select lives_ok($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Song', 'upload', '10000000-0000-4000-8000-000000000001/0000000c-0000-4000-8000-00000000000c/song.mp3') $$,
  'an upload post whose file exists is accepted');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Again', 'upload', '10000000-0000-4000-8000-000000000001/0000000c-0000-4000-8000-00000000000c/song.mp3') $$,
  '23505', null, 'two posts cannot share one file');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select ok((select count(*) from public.posts where room_id = '10000000-0000-4000-8000-000000000001') >= 1, 'anon reads a public room''s posts');
select is_empty($$ select 1 from public.posts where room_id = '20000000-0000-4000-8000-000000000002' $$, 'anon reads nothing of a gated room''s posts');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 't', 'embed', 'https://x.example.com/a') $$,
  '42501', null, 'anon cannot post');
select throws_ok($$ update public.posts set title = 'x' $$, '42501', null, 'anon cannot edit posts');
select throws_ok($$ delete from public.posts $$, '42501', null, 'anon cannot delete posts');

-- ---------------------------------------------------------------------------------------------
-- a signed-in non-member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000e-0000-4000-8000-00000000000e');
select isnt_empty($$ select 1 from public.posts where id = '30000000-0000-4000-8000-000000000001' $$, 'a non-member reads a public room''s posts');
select is_empty($$ select 1 from public.posts where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a non-member reads nothing of a gated room''s posts');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('10000000-0000-4000-8000-000000000001', '0000000e-0000-4000-8000-00000000000e', 't', 'embed', 'https://x.example.com/a') $$,
  '42501', null, 'a non-member cannot post in a public room');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('20000000-0000-4000-8000-000000000002', '0000000e-0000-4000-8000-00000000000e', 't', 'embed', 'https://x.example.com/a') $$,
  '42501', null, 'a non-member cannot post in a gated room');
select is_empty($$ update public.posts set title = 'x' where id = '30000000-0000-4000-8000-000000000001' returning 1 $$, 'a non-member cannot edit a post');
select is_empty($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000001' returning 1 $$, 'a non-member cannot delete a post');

-- ---------------------------------------------------------------------------------------------
-- the author (a member)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.posts where room_id = '20000000-0000-4000-8000-000000000002'), 3, 'a member reads a gated room''s posts');
select lives_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Mine', 'embed', 'https://vimeo.com/3') $$,
  'a member posts in a gated room');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('20000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'As someone else', 'embed', 'https://vimeo.com/3') $$,
  '42501', null, 'a member cannot post as someone else');
select throws_ok($$ insert into public.posts (room_id, author_id, title, media_kind, media_url, embed) values ('20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Forged', 'embed', 'https://vimeo.com/3', '{"title":"forged"}') $$,
  '42501', null, 'an author cannot write embed metadata (the server does)');
select isnt_empty($$ update public.posts set title = 'Edited', body = 'now with words' where id = '30000000-0000-4000-8000-000000000002' returning 1 $$, 'the author edits their post');
select throws_ok($$ update public.posts set media_url = 'https://vimeo.com/9' where id = '30000000-0000-4000-8000-000000000002' $$,
  '42501', null, 'the author cannot swap the media of a post');
select throws_ok($$ update public.posts set room_id = '10000000-0000-4000-8000-000000000001' where id = '30000000-0000-4000-8000-000000000002' $$,
  '42501', null, 'the author cannot move a post to another room');
select is_empty($$ update public.posts set title = 'Hijacked' where id = '30000000-0000-4000-8000-000000000003' returning 1 $$, 'a member cannot edit another member''s post');
select is_empty($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000003' returning 1 $$, 'a member cannot delete another member''s post');
select isnt_empty($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000002' returning 1 $$, 'the author deletes their post');

-- ---------------------------------------------------------------------------------------------
-- a moderator
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
select is_empty($$ update public.posts set title = 'Moderated' where id = '30000000-0000-4000-8000-000000000003' returning 1 $$, 'a moderator cannot edit someone''s post');
select isnt_empty($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000003' returning 1 $$, 'a moderator deletes any post in their room');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000a-0000-4000-8000-00000000000a');
select is_empty($$ update public.posts set title = 'Owned' where id = '30000000-0000-4000-8000-000000000004' returning 1 $$, 'the owner cannot edit someone''s post');
select isnt_empty($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000004' returning 1 $$, 'the owner deletes any post in their room');

-- a member who leaves can no longer edit what they wrote
select pg_temp.act_as_superuser();
delete from public.memberships where room_id = '10000000-0000-4000-8000-000000000001' and user_id = '0000000c-0000-4000-8000-00000000000c';
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is_empty($$ update public.posts set title = 'After leaving' where id = '30000000-0000-4000-8000-000000000001' returning 1 $$, 'a former member cannot edit their post');
select isnt_empty($$ delete from public.posts where id = '30000000-0000-4000-8000-000000000001' returning 1 $$, '... but can still delete it');

-- ---------------------------------------------------------------------------------------------
-- service_role
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('service_role');
select lives_ok($$ update public.posts set embed = '{"provider":"Vimeo","title":"A film"}' where room_id = '20000000-0000-4000-8000-000000000002' $$,
  'the server writes embed metadata');

-- ---------------------------------------------------------------------------------------------
-- media bucket
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select isnt_empty($$ select 1 from storage.objects where bucket_id = 'media' and name like '10000000-0000-4000-8000-000000000001/%' $$, 'anon reads a public room''s media');
select pg_temp.act_as_superuser();
insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('media', '20000000-0000-4000-8000-000000000002/0000000d-0000-4000-8000-00000000000d/gated.mp4', '0000000d-0000-4000-8000-00000000000d', '{"size": 10, "mimetype": "video/mp4"}');
select pg_temp.act_as('authenticated', '0000000e-0000-4000-8000-00000000000e');
select is_empty($$ select 1 from storage.objects where bucket_id = 'media' and name like '20000000-0000-4000-8000-000000000002/%' $$, 'a non-member reads nothing of a gated room''s media');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('media', '10000000-0000-4000-8000-000000000001/0000000e-0000-4000-8000-00000000000e/a.mp3') $$,
  '42501', null, 'a non-member cannot upload media into a room');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('media', 'not-a-room/0000000e-0000-4000-8000-00000000000e/a.mp3') $$,
  '42501', null, 'a folder that is not a room is refused (without an error from the uuid cast)');
select pg_temp.act_as('authenticated', '0000000d-0000-4000-8000-00000000000d');
select isnt_empty($$ select 1 from storage.objects where bucket_id = 'media' and name like '20000000-0000-4000-8000-000000000002/%' $$, 'a member reads a gated room''s media');
select lives_ok($$ insert into storage.objects (bucket_id, name) values ('media', '20000000-0000-4000-8000-000000000002/0000000d-0000-4000-8000-00000000000d/b.mp3') $$,
  'a member uploads into their own folder of the room');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('media', '20000000-0000-4000-8000-000000000002/0000000c-0000-4000-8000-00000000000c/b.mp3') $$,
  '42501', null, 'a member cannot upload into another member''s folder');
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is_empty($$ delete from storage.objects where name = '20000000-0000-4000-8000-000000000002/0000000d-0000-4000-8000-00000000000d/gated.mp4' returning 1 $$, 'a member cannot delete another member''s file');
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
select isnt_empty($$ delete from storage.objects where name = '20000000-0000-4000-8000-000000000002/0000000d-0000-4000-8000-00000000000d/gated.mp4' returning 1 $$, 'a moderator deletes a member''s file');

select * from finish();
rollback;
