-- Storage policies of the avatars bucket: anon / another user / the owner × select / insert / update / delete.
begin;
create extension if not exists pgtap with schema extensions;
select plan(16);

create function pg_temp.act_as(role_name text, user_id uuid default null) returns void
language plpgsql as $$
begin
  perform set_config('request.jwt.claims',
    case when user_id is null then json_build_object('role', role_name)::text
         else json_build_object('sub', user_id, 'role', role_name)::text end, true);
  execute format('set local role %I', role_name);
end $$;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

insert into auth.users (id, aud, role, email, created_at, updated_at) values
  ('aaaaaaaa-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'avatar-owner@example.test', now(), now()),
  ('bbbbbbbb-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'avatar-other@example.test', now(), now());

insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('avatars', 'aaaaaaaa-0000-4000-8000-00000000000a/a.png', 'aaaaaaaa-0000-4000-8000-00000000000a', '{"size": 10, "mimetype": "image/png"}');

-- anon
select pg_temp.act_as('anon');
select is((select count(*)::int from storage.objects where bucket_id = 'avatars' and name like 'aaaaaaaa-0000-4000-8000-00000000000a/%'), 1, 'anon can read avatars');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'aaaaaaaa-0000-4000-8000-00000000000a/anon.png') $$,
  '42501', null, 'anon cannot upload an avatar');
select is_empty($$ update storage.objects set name = name || 'x' where bucket_id = 'avatars' returning 1 $$, 'anon cannot rename avatars');
select is_empty($$ delete from storage.objects where bucket_id = 'avatars' returning 1 $$, 'anon cannot delete avatars');
reset role;

-- another signed-in user
select pg_temp.act_as('authenticated', 'bbbbbbbb-0000-4000-8000-00000000000b');
select is((select count(*)::int from storage.objects where bucket_id = 'avatars' and name like 'aaaaaaaa-0000-4000-8000-00000000000a/%'), 1, 'another user can read someone''s avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'aaaaaaaa-0000-4000-8000-00000000000a/evil.png') $$,
  '42501', null, 'another user cannot upload into someone else''s folder');
select is_empty($$ update storage.objects set metadata = '{}' where name = 'aaaaaaaa-0000-4000-8000-00000000000a/a.png' returning 1 $$,
  'another user cannot overwrite someone else''s avatar');
select is_empty($$ delete from storage.objects where name = 'aaaaaaaa-0000-4000-8000-00000000000a/a.png' returning 1 $$,
  'another user cannot delete someone else''s avatar');
select lives_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'bbbbbbbb-0000-4000-8000-00000000000b/mine.png') $$,
  'that user can upload into their own folder');
reset role;

-- the owner
select pg_temp.act_as('authenticated', 'aaaaaaaa-0000-4000-8000-00000000000a');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner_id) values ('avatars', 'aaaaaaaa-0000-4000-8000-00000000000a/b.webp', 'aaaaaaaa-0000-4000-8000-00000000000a') $$,
  'the owner can upload into their own folder');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'b.webp') $$,
  '42501', null, 'the owner cannot upload outside any folder');
select isnt_empty($$ update storage.objects set metadata = '{"size": 11}' where name = 'aaaaaaaa-0000-4000-8000-00000000000a/a.png' returning 1 $$,
  'the owner can replace their avatar');
select throws_ok($$ update storage.objects set name = 'bbbbbbbb-0000-4000-8000-00000000000b/moved.png' where name = 'aaaaaaaa-0000-4000-8000-00000000000a/a.png' $$,
  '42501', null, 'the owner cannot move their avatar into someone else''s folder');
select isnt_empty($$ delete from storage.objects where name = 'aaaaaaaa-0000-4000-8000-00000000000a/a.png' returning 1 $$,
  'the owner can delete their avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('media', 'aaaaaaaa-0000-4000-8000-00000000000a/a.mp3') $$,
  '42501', null, 'the avatar policies grant nothing in other buckets');
reset role;

select bag_eq(
  $$ select policyname::text from pg_policies where schemaname = 'storage' and tablename = 'objects' and policyname ilike '%avatar%' $$,
  $$ values ('Avatars are readable by everyone'), ('Users upload avatars into their own folder'), ('Users replace avatars in their own folder'), ('Users delete avatars in their own folder'),
    ('With a verified factor, avatar and cover uploads need aal2'), ('With a verified factor, avatar and cover changes need aal2') $$,
  'storage.objects has exactly the expected avatar policies');

select * from finish();
rollback;
