-- Storage policies of the room-covers bucket: anon / a non-member / a member / a moderator / the owner
-- × select / insert / update / delete, plus folders that are another room's or no room's at all.
begin;
create extension if not exists pgtap with schema extensions;
select plan(22);

create function pg_temp.act_as(role_name text, user_id uuid default null) returns void
language plpgsql as $$
begin
  perform set_config('request.jwt.claims',
    case when user_id is null then json_build_object('role', role_name)::text
         else json_build_object('sub', user_id, 'role', role_name)::text end, true);
  execute format('set local role %I', role_name);
end $$;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('room-covers', 'room-covers', true, 5242880, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do nothing;

insert into auth.users (id, aud, role, email, created_at, updated_at) values
  ('c0000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'cover-owner@example.test', now(), now()),
  ('c0000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'cover-moderator@example.test', now(), now()),
  ('c0000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'cover-member@example.test', now(), now()),
  ('c0000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'cover-outsider@example.test', now(), now());

insert into public.rooms (id, slug, name, owner_id) values
  ('d0000000-0000-4000-8000-000000000001', 'cover-room', 'Cover room', 'c0000000-0000-4000-8000-00000000000a'),
  ('d0000000-0000-4000-8000-000000000002', 'other-cover-room', 'Other room', 'c0000000-0000-4000-8000-00000000000d');
insert into public.memberships (room_id, user_id, role) values
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-00000000000b', 'moderator'),
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-00000000000c', 'member');

insert into storage.objects (bucket_id, name, metadata) values
  ('room-covers', 'd0000000-0000-4000-8000-000000000001/a.png', '{"size": 10, "mimetype": "image/png"}'),
  ('room-covers', 'd0000000-0000-4000-8000-000000000001/b.png', '{"size": 10, "mimetype": "image/png"}');

-- anon
select pg_temp.act_as('anon');
select is((select count(*)::int from storage.objects where bucket_id = 'room-covers'), 2, 'anon can read covers');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000001/anon.png') $$,
  '42501', null, 'anon cannot upload a cover');
select is_empty($$ delete from storage.objects where bucket_id = 'room-covers' returning 1 $$, 'anon cannot delete covers');
reset role;

-- a signed-in non-member (who owns another room)
select pg_temp.act_as('authenticated', 'c0000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from storage.objects where bucket_id = 'room-covers'), 2, 'a non-member can read covers');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000001/x.png') $$,
  '42501', null, 'a non-member cannot upload into the room''s folder');
select is_empty($$ update storage.objects set metadata = '{}' where name = 'd0000000-0000-4000-8000-000000000001/a.png' returning 1 $$,
  'a non-member cannot replace the room''s cover');
select is_empty($$ delete from storage.objects where name = 'd0000000-0000-4000-8000-000000000001/a.png' returning 1 $$,
  'a non-member cannot delete the room''s cover');
select lives_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000002/mine.png') $$,
  'the owner of another room uploads into their own room''s folder');
reset role;

-- a member
select pg_temp.act_as('authenticated', 'c0000000-0000-4000-8000-00000000000c');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000001/m.png') $$,
  '42501', null, 'a member cannot upload a cover');
select is_empty($$ delete from storage.objects where name = 'd0000000-0000-4000-8000-000000000001/a.png' returning 1 $$,
  'a member cannot delete the cover');
reset role;

-- a moderator
select pg_temp.act_as('authenticated', 'c0000000-0000-4000-8000-00000000000b');
select lives_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000001/mod.png') $$,
  'a moderator uploads a cover');
select isnt_empty($$ update storage.objects set metadata = '{"size": 11}' where name = 'd0000000-0000-4000-8000-000000000001/a.png' returning 1 $$,
  'a moderator replaces the cover');
select isnt_empty($$ delete from storage.objects where name = 'd0000000-0000-4000-8000-000000000001/b.png' returning 1 $$,
  'a moderator removes a cover');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000002/mod.png') $$,
  '42501', null, 'a moderator cannot upload into another room''s folder');
reset role;

-- the owner
select pg_temp.act_as('authenticated', 'c0000000-0000-4000-8000-00000000000a');
select lives_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000001/own.webp') $$,
  'the owner uploads a cover');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'own.webp') $$,
  '42501', null, 'the owner cannot upload outside any folder');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'not-a-room/own.webp') $$,
  '42501', null, 'a folder name that is not a uuid is refused, not an error');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('room-covers', 'd0000000-0000-4000-8000-000000000002/own.webp') $$,
  '42501', null, 'the owner cannot upload into another room''s folder');
select throws_ok($$ update storage.objects set name = 'd0000000-0000-4000-8000-000000000002/moved.png' where name = 'd0000000-0000-4000-8000-000000000001/a.png' $$,
  '42501', null, 'the owner cannot move a cover into another room''s folder');
with gone as (delete from storage.objects where name like 'd0000000-0000-4000-8000-000000000001/%' returning 1)
select is(count(*)::int, 3, 'the owner empties the room''s folder') from gone;
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', 'd0000000-0000-4000-8000-000000000001/a.png') $$,
  '42501', null, 'the cover policies grant nothing in other buckets');
reset role;

select is(private.can_write_room_cover('zzzz/../x.png'), false, 'the helper answers false, not an error, for any name');

select * from finish();
rollback;
