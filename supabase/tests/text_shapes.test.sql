-- The free text a member writes keeps its shape (supabase/migrations/20261127000500_text_shapes.sql):
-- each column's checks, written as its owner would through the API's role. The full table of cases
-- runs on both sides in tests/fixtures/text-shapes.json (the app's rules and the database's).
begin;
create extension if not exists pgtap with schema extensions;
select plan(16);

\ir helpers/roles.psql

select is(private.has_visible_text(E'\u3164\u200b\u00a0\t'), false, 'fillers, zero-width and no-break spaces show nothing');
select is(private.has_visible_text(E'\u200f\u05e9'), true, 'a right-to-left mark before a Hebrew letter shows something');
select is(private.is_line_characters(E'a\u202eb'), false, 'an override is not a line''s character');
select is(private.is_line_characters('שלום مرحبا'), true, 'right-to-left writing is');
select is(private.is_body_characters(E'a\nb\tc\r\n'), true, 'a body keeps line breaks and tabs');
select is(private.is_body_characters(E'ding\u0007'), false, 'but no other control character');

insert into auth.users (id, aud, role, email, created_at, updated_at, raw_user_meta_data) values
  ('7e470001-0000-4000-8000-0000000000a1', 'authenticated', 'authenticated', 'shapes@example.test', now(), now(), jsonb_build_object('display_name', E'\u202eAda\u202c'));
select is((select display_name from public.profiles where id = '7e470001-0000-4000-8000-0000000000a1'), 'Ada', 'a sign-up''s display name loses the characters a name may not have');
insert into public.rooms (id, slug, name, owner_id) values
  ('7e470002-0000-4000-8000-0000000000b2', 'shapes-room', 'Shapes', '7e470001-0000-4000-8000-0000000000a1');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('7e470003-0000-4000-8000-0000000000c3', '7e470002-0000-4000-8000-0000000000b2', '7e470001-0000-4000-8000-0000000000a1', 'Shapes', 'embed', 'https://vimeo.com/76979871');

select pg_temp.act_as('authenticated', '7e470001-0000-4000-8000-0000000000a1');
select throws_like($$ update public.profiles set display_name = E'\u202egnp.exe' where id = '7e470001-0000-4000-8000-0000000000a1' $$,
  '%profiles_display_name_characters%', 'a display name with an override is refused');
select throws_like($$ update public.profiles set display_name = 'a' || repeat(' ', 100) where id = '7e470001-0000-4000-8000-0000000000a1' $$,
  '%profiles_display_name_length%', 'a display name padded past 50 characters is refused');
select throws_like($$ update public.profiles set bio = E'esc\u001b[31m' where id = '7e470001-0000-4000-8000-0000000000a1' $$,
  '%profiles_bio_characters%', 'a bio with an escape sequence is refused');
select throws_like($$ update public.rooms set name = E'\u00a0\u2800' where id = '7e470002-0000-4000-8000-0000000000b2' $$,
  '%rooms_name_length%', 'a room name of blanks is refused');
select throws_like($$ update public.rooms set description = E'del\u007f' where id = '7e470002-0000-4000-8000-0000000000b2' $$,
  '%rooms_description_characters%', 'a description with a control character is refused');
select throws_like($$ update public.posts set title = E'a\u2066b\u2069' where id = '7e470003-0000-4000-8000-0000000000c3' $$,
  '%posts_title_characters%', 'a title with an isolate is refused');
select throws_like($$ update public.posts set body = E'next\u0085line' where id = '7e470003-0000-4000-8000-0000000000c3' $$,
  '%posts_body_characters%', 'a post''s text with a C1 control is refused');
select throws_like($$ insert into public.moments (post_id, author_id, body) values ('7e470003-0000-4000-8000-0000000000c3', '7e470001-0000-4000-8000-0000000000a1', E'\ufeff\u3000') $$,
  '%moments_body_length%', 'a comment of blanks is refused');
select lives_ok($$ insert into public.moments (post_id, author_id, body) values ('7e470003-0000-4000-8000-0000000000c3', '7e470001-0000-4000-8000-0000000000a1', E'שלום \u202eback\nand a line') $$,
  'a comment keeps right-to-left writing, an override and a line break');

select * from finish();
rollback;
