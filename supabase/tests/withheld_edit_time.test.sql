-- Hiding and showing again, holding and approving are not edits (private.withheld_keeps_edit_time):
-- the post or comment keeps its edit time; a real edit still moves it.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(6);

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('3e100000-0000-4000-8000-000000000001', 'authenticated', 'authenticated', 'edit-time@example.test', '{"username":"edit_time_o"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('3e200000-0000-4000-8000-000000000001', 'edit-time-room', 'Edit time', '3e100000-0000-4000-8000-000000000001', 'public');
insert into public.posts (id, room_id, author_id, title, body, media_kind, media_url, updated_at) values
  ('3e300000-0000-4000-8000-000000000001', '3e200000-0000-4000-8000-000000000001', '3e100000-0000-4000-8000-000000000001',
   'Searchable title', 'Words to find', 'embed', 'https://vimeo.com/1', '2026-01-01T00:00:00Z');
insert into public.moments (id, post_id, author_id, body, updated_at) values
  ('3e400000-0000-4000-8000-000000000001', '3e300000-0000-4000-8000-000000000001', '3e100000-0000-4000-8000-000000000001',
   'A comment with words', '2026-01-01T00:00:00Z');

update public.posts set hidden_at = now() where id = '3e300000-0000-4000-8000-000000000001';
select is((select updated_at from public.posts where id = '3e300000-0000-4000-8000-000000000001'), '2026-01-01T00:00:00Z'::timestamptz,
  'hiding a post keeps its edit time');
update public.posts set hidden_at = null where id = '3e300000-0000-4000-8000-000000000001';
select is((select updated_at from public.posts where id = '3e300000-0000-4000-8000-000000000001'), '2026-01-01T00:00:00Z'::timestamptz,
  'showing it again keeps its edit time');

update public.moments set held_at = now() where id = '3e400000-0000-4000-8000-000000000001';
select is((select updated_at from public.moments where id = '3e400000-0000-4000-8000-000000000001'), '2026-01-01T00:00:00Z'::timestamptz,
  'holding a comment keeps its edit time');
update public.moments set held_at = null, hidden_at = now() where id = '3e400000-0000-4000-8000-000000000001';
select is((select updated_at from public.moments where id = '3e400000-0000-4000-8000-000000000001'), '2026-01-01T00:00:00Z'::timestamptz,
  'approving and hiding a comment keep its edit time');

update public.posts set title = 'A new title' where id = '3e300000-0000-4000-8000-000000000001';
select isnt((select updated_at from public.posts where id = '3e300000-0000-4000-8000-000000000001'), '2026-01-01T00:00:00Z'::timestamptz,
  'an edit of the title moves the post''s edit time');
update public.moments set body = 'Other words', hidden_at = null where id = '3e400000-0000-4000-8000-000000000001';
select isnt((select updated_at from public.moments where id = '3e400000-0000-4000-8000-000000000001'), '2026-01-01T00:00:00Z'::timestamptz,
  'an edit of the words moves the comment''s edit time');

select * from finish();
rollback;
