-- media_orphan_uploads: which media files count as abandoned (older than the grace period, no post
-- pointing at them), and that only the service role may ask.
begin;
create extension if not exists pgtap with schema extensions;
select plan(8);

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('media', 'media', false, 52428800, array['audio/*', 'video/*'])
on conflict (id) do nothing;

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000000a-0000-4000-8000-0000000000a1', 'authenticated', 'authenticated', 'orphan-owner@example.test', '{"username":"orphan_owner"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('10000000-0000-4000-8000-0000000000a1', 'orphans-room', 'Orphans', '0000000a-0000-4000-8000-0000000000a1', 'public');

insert into storage.objects (bucket_id, name, owner_id, created_at) values
  ('media', '10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/old-orphan.wav', '0000000a-0000-4000-8000-0000000000a1', now() - interval '2 hours'),
  ('media', '10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/new-orphan.wav', '0000000a-0000-4000-8000-0000000000a1', now() - interval '5 minutes'),
  ('media', '10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/posted.wav', '0000000a-0000-4000-8000-0000000000a1', now() - interval '2 hours'),
  ('avatars', '0000000a-0000-4000-8000-0000000000a1/old-avatar.png', '0000000a-0000-4000-8000-0000000000a1', now() - interval '2 hours');
insert into public.posts (room_id, author_id, title, media_kind, storage_path) values
  ('10000000-0000-4000-8000-0000000000a1', '0000000a-0000-4000-8000-0000000000a1', 'Posted', 'upload', '10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/posted.wav');

set local role service_role;
select set_eq(
  $$ select n from public.media_orphan_uploads() n where n like '10000000-0000-4000-8000-0000000000a1/%' $$,
  $$ values ('10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/old-orphan.wav') $$,
  'an old file with no post is an orphan; a recent one, a posted one and other buckets are not');
select set_eq(
  $$ select n from public.media_orphan_uploads(interval '1 minute') n where n like '10000000-0000-4000-8000-0000000000a1/%' $$,
  $$ values ('10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/old-orphan.wav'), ('10000000-0000-4000-8000-0000000000a1/0000000a-0000-4000-8000-0000000000a1/new-orphan.wav') $$,
  'the grace period decides which files are old enough');
select is((select count(*)::int from public.media_orphan_uploads(interval '1 minute', 1)), 1, 'at most max_files names');
select is((select count(*)::int from public.media_orphan_uploads(interval '1 minute', -5)), 0, 'a negative limit lists nothing');
reset role;

select ok(not has_function_privilege('anon', 'public.media_orphan_uploads(interval, integer)', 'execute'), 'anon may not list orphans');
select ok(not has_function_privilege('authenticated', 'public.media_orphan_uploads(interval, integer)', 'execute'), 'signed-in users may not list orphans');
select ok(has_function_privilege('service_role', 'public.media_orphan_uploads(interval, integer)', 'execute'), 'the service role may');

set local role authenticated;
select throws_ok($$ select * from public.media_orphan_uploads() $$, '42501', null, 'calling it as a user is refused');
reset role;

select * from finish();
rollback;
