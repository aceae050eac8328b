-- Stored file paths stay in their folder, checked as path segments: the rule on a table of cases,
-- then each path column written as its owner would (through the API's role), with the escapes an
-- attacker would try (`..`, `.`, empty segments, backslashes, control characters, another folder).
begin;
create extension if not exists pgtap with schema extensions;
select plan(28);

\ir helpers/roles.psql

-- The rule itself.
select is(private.is_path_in_folder(object_path, 'f'), expected, format('%s: %s', object_path, case when expected then 'in the folder' else 'refused' end))
from (values
  ('f/a.png', true),
  ('f/sub/a.png', true),
  ('f/a..b.png', true),
  ('f/.hidden', true),
  ('f/../g/a.png', false),
  ('f/./a.png', false),
  ('f/sub/../../g/a.png', false),
  ('f/..', false),
  ('f//a.png', false),
  ('f/a.png/', false),
  ('f/', false),
  ('f', false),
  ('g/a.png', false),
  ('ff/a.png', false),
  ('f/a\..\g.png', false),
  ('f/a' || chr(10) || '.png', false),
  ('/f/a.png', false)
) as cases(object_path, expected);

insert into auth.users (id, aud, role, email, created_at, updated_at) values
  ('5a7a0001-0000-4000-8000-0000000000a1', 'authenticated', 'authenticated', 'paths-owner@example.test', now(), now()),
  ('5a7a0002-0000-4000-8000-0000000000b2', 'authenticated', 'authenticated', 'paths-other@example.test', now(), now());
insert into public.rooms (id, slug, name, owner_id) values
  ('5a7a0003-0000-4000-8000-0000000000c3', 'paths-room', 'Paths', '5a7a0001-0000-4000-8000-0000000000a1');

-- An avatar, as its owner.
select pg_temp.act_as('authenticated', '5a7a0001-0000-4000-8000-0000000000a1');
select throws_like($$ update public.profiles set avatar_path = '5a7a0001-0000-4000-8000-0000000000a1/../5a7a0002-0000-4000-8000-0000000000b2/me.png' where id = '5a7a0001-0000-4000-8000-0000000000a1' $$,
  '%profiles_avatar_path_in_own_folder%', 'an avatar path that climbs out of the owner''s folder into another''s is refused');
select throws_like($$ update public.profiles set avatar_path = '5a7a0001-0000-4000-8000-0000000000a1//me.png' where id = '5a7a0001-0000-4000-8000-0000000000a1' $$,
  '%profiles_avatar_path_in_own_folder%', 'an avatar path with an empty segment is refused');
select throws_like($$ update public.profiles set avatar_path = '5a7a0001-0000-4000-8000-0000000000a1/..\5a7a0002-0000-4000-8000-0000000000b2\me.png' where id = '5a7a0001-0000-4000-8000-0000000000a1' $$,
  '%profiles_avatar_path_in_own_folder%', 'an avatar path with backslashes is refused');
select lives_ok($$ update public.profiles set avatar_path = '5a7a0001-0000-4000-8000-0000000000a1/1700000000000.png' where id = '5a7a0001-0000-4000-8000-0000000000a1' $$,
  'an avatar in the owner''s folder is accepted');

-- A cover, as the room's owner.
select throws_like($$ update public.rooms set cover_path = '5a7a0003-0000-4000-8000-0000000000c3/../5a7a0004-0000-4000-8000-0000000000d4/cover.png' where id = '5a7a0003-0000-4000-8000-0000000000c3' $$,
  '%rooms_cover_path_in_own_folder%', 'a cover path that climbs out of the room''s folder is refused');
select throws_like($$ update public.rooms set cover_path = '5a7a0003-0000-4000-8000-0000000000c3/./cover.png' where id = '5a7a0003-0000-4000-8000-0000000000c3' $$,
  '%rooms_cover_path_in_own_folder%', 'a cover path with a `.` segment is refused');
select lives_ok($$ update public.rooms set cover_path = '5a7a0003-0000-4000-8000-0000000000c3/cover.png' where id = '5a7a0003-0000-4000-8000-0000000000c3' $$,
  'a cover in the room''s folder is accepted');

-- An upload post, as its author.
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('5a7a0003-0000-4000-8000-0000000000c3', '5a7a0001-0000-4000-8000-0000000000a1', 't', 'upload', '5a7a0003-0000-4000-8000-0000000000c3/5a7a0001-0000-4000-8000-0000000000a1/../5a7a0002-0000-4000-8000-0000000000b2/song.mp3') $$,
  '%posts_storage_path_in_own_folder%', 'an upload path that climbs into another member''s folder is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('5a7a0003-0000-4000-8000-0000000000c3', '5a7a0001-0000-4000-8000-0000000000a1', 't', 'upload', '5a7a0003-0000-4000-8000-0000000000c3/5a7a0001-0000-4000-8000-0000000000a1/') $$,
  '%posts_storage_path_in_own_folder%', 'an upload path that names the folder itself is refused');
select pg_temp.act_as_superuser();
insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('media', '5a7a0003-0000-4000-8000-0000000000c3/5a7a0001-0000-4000-8000-0000000000a1/song.mp3', '5a7a0001-0000-4000-8000-0000000000a1', '{"size": 10, "mimetype": "audio/mpeg"}');
select pg_temp.act_as('authenticated', '5a7a0001-0000-4000-8000-0000000000a1');
select lives_ok($$ insert into public.posts (room_id, author_id, title, media_kind, storage_path) values ('5a7a0003-0000-4000-8000-0000000000c3', '5a7a0001-0000-4000-8000-0000000000a1', 'Song', 'upload', '5a7a0003-0000-4000-8000-0000000000c3/5a7a0001-0000-4000-8000-0000000000a1/song.mp3') $$,
  'an upload in the author''s own folder of the room is accepted');

-- The rule is the database's, whoever writes: the service role too.
select pg_temp.act_as('service_role');
select throws_like($$ update public.profiles set avatar_path = '5a7a0002-0000-4000-8000-0000000000b2/../5a7a0001-0000-4000-8000-0000000000a1/1700000000000.png' where id = '5a7a0002-0000-4000-8000-0000000000b2' $$,
  '%profiles_avatar_path_in_own_folder%', 'the service role cannot store an escaping path either');
select pg_temp.act_as_superuser();

select * from finish();
rollback;
