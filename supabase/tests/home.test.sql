-- The home page's reads and the visits they count from (20261128000400_home_your_rooms_and_visits.sql):
-- room_visits written only by mark_room_visited, for the caller, in a room where their membership
-- counts; my_rooms' counts of others' posts and comments since the last visit, live session and who
-- is here, for current members only; live_now and top_moments never show a gated room to anyone who
-- may not read it (top_moments: to anyone at all). Every role: anon, an outsider, a member, a
-- moderator, the owner, a gated member whose check lapsed, service_role.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(58);

-- owner o (…a), moderator m (…b), members a (…c) and b (…d), outsider n (…e), lapsed gated member l (…f)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('40000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'home-owner@example.test', '{"username":"home_owner"}', now(), now()),
  ('40000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'home-mod@example.test', '{"username":"home_mod"}', now(), now()),
  ('40000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'home-a@example.test', '{"username":"home_a"}', now(), now()),
  ('40000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'home-b@example.test', '{"username":"home_b"}', now(), now()),
  ('40000000-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'home-out@example.test', '{"username":"home_out"}', now(), now()),
  ('40000000-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'home-lapsed@example.test', '{"username":"home_lapsed"}', now(), now());
update public.profiles set display_name = 'Bea' where id = '40000000-0000-4000-8000-00000000000d';

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('41000000-0000-4000-8000-000000000001', 'home-public', 'Home public', '40000000-0000-4000-8000-00000000000a', 'public'),
  ('41000000-0000-4000-8000-000000000002', 'home-gated', 'Home gated', '40000000-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('41000000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role, joined_at, verified_at) values
  ('41000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000b', 'moderator', now() - interval '2 days', null),
  ('41000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000b', 'moderator', now() - interval '2 days', null),
  ('41000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000c', 'member', now() - interval '2 days', null),
  ('41000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000c', 'member', now() - interval '2 days', now()),
  ('41000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 'member', now() - interval '2 days', null),
  ('41000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000d', 'member', now() - interval '2 days', now()),
  -- l joined the gated room, but their balance was last checked two hours ago: the membership no longer counts.
  ('41000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000f', 'member', now() - interval '2 days', now() - interval '2 hours');
update public.memberships set joined_at = now() - interval '2 days' where user_id = '40000000-0000-4000-8000-00000000000a';

-- Posts: in each room, one by b a day ago, one by a a day ago.
insert into public.posts (id, room_id, author_id, title, media_kind, media_url, duration_seconds, created_at) values
  ('42000000-0000-4000-8000-000000000001', '41000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 'Public by b', 'embed', 'https://vimeo.com/1', 300, now() - interval '1 day'),
  ('42000000-0000-4000-8000-000000000002', '41000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000c', 'Public by a', 'embed', 'https://vimeo.com/2', 300, now() - interval '1 day'),
  ('42000000-0000-4000-8000-000000000003', '41000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000d', 'Gated by b', 'embed', 'https://vimeo.com/3', 300, now() - interval '1 day');

-- Comments, a day ago: on the public post, three by b around 0:42 and one at 1:40, one general; on
-- the gated post, fifty around 0:10 (more than any moment anywhere); a public one from last month.
insert into public.moments (post_id, author_id, at_seconds, body, created_at) values
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 42.5, 'the drop', now() - interval '1 day'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 44, 'again', now() - interval '1 day'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000b', 41, 'yes', now() - interval '23 hours'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000c', 100, 'outro', now() - interval '1 day'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', null, 'general', now() - interval '1 day'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 200, 'old', now() - interval '30 days'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 201, 'old too', now() - interval '30 days'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 202, 'old three', now() - interval '30 days'),
  ('42000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 203, 'old four', now() - interval '30 days');
insert into public.moments (post_id, author_id, at_seconds, body, created_at)
select '42000000-0000-4000-8000-000000000003', '40000000-0000-4000-8000-00000000000d', 10 + i % 8, 'gated secret ' || i, now() - interval '1 day'
from generate_series(1, 50) i;

-- ---------------------------------------------------------------------------------------------
-- The table: RLS, indexes, and no direct writes
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.room_visits'::regclass), 'room_visits has row-level security');
select has_index('public', 'room_visits', 'room_visits_room_id_idx', 'the foreign key room_id is indexed');
select has_index('public', 'moments', 'moments_room_created_idx', array['room_id', 'created_at'], 'a room''s comments are indexed by time');
select has_index('public', 'moments', 'moments_timed_created_idx', 'the week''s timed comments are indexed by time');

select pg_temp.act_as('anon');
select throws_ok($$ select * from public.room_visits $$, '42501', 'permission denied for table room_visits', 'anon cannot read visits');
select throws_ok($$ select public.mark_room_visited('41000000-0000-4000-8000-000000000001') $$, '42501', 'permission denied for function mark_room_visited', 'anon cannot record a visit');
select throws_ok($$ select * from public.my_rooms() $$, '42501', 'permission denied for function my_rooms', 'anon has no rooms of their own');

select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000e');
select throws_ok($$ insert into public.room_visits (user_id, room_id) values ('40000000-0000-4000-8000-00000000000c', '41000000-0000-4000-8000-000000000001') $$,
  '42501', 'permission denied for table room_visits', 'nobody writes a visit directly, for someone else…');
select throws_ok($$ insert into public.room_visits (user_id, room_id) values ('40000000-0000-4000-8000-00000000000e', '41000000-0000-4000-8000-000000000001') $$,
  '42501', 'permission denied for table room_visits', '…or for themselves');
select throws_ok($$ select public.mark_room_visited('41000000-0000-4000-8000-000000000001') $$,
  '42501', 'Only members of this room keep track of their visits', 'an outsider cannot record a visit to a public room');
select throws_ok($$ select public.mark_room_visited('41000000-0000-4000-8000-000000000002') $$,
  '42501', 'Only members of this room keep track of their visits', '…nor to a gated one');
select throws_ok($$ select public.mark_room_visited(null) $$,
  '42501', 'Only members of this room keep track of their visits', 'no room is no visit');
select is((select count(*)::int from public.my_rooms()), 0, 'an outsider has no rooms');

-- ---------------------------------------------------------------------------------------------
-- my_rooms before any visit: others' posts and comments since joining
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.my_rooms()), 2, 'a member lists both their rooms');
select is((select new_posts from public.my_rooms() where slug = 'home-public'), 1, 'others'' posts since joining count (not their own)');
select is((select new_comments from public.my_rooms() where slug = 'home-public'), 4, 'others'' comments since joining count (not their own, nor those from before joining)');
select is((select new_posts from public.my_rooms() where slug = 'home-gated'), 1, 'a current gated member counts the gated room''s posts');
select is((select new_comments from public.my_rooms() where slug = 'home-gated'), 50, '…and its comments');
select is((select last_visit_at from public.my_rooms() where slug = 'home-public'), null, 'no visit yet');

-- A visit: counted from then on.
select is(public.mark_room_visited('41000000-0000-4000-8000-000000000001'), null, 'the first visit answers that there was none before');
select is((select count(*)::int from public.room_visits), 1, 'the member reads their own visit');
select is((select user_id from public.room_visits), '40000000-0000-4000-8000-00000000000c'::uuid, '…written for the caller');
select throws_ok($$ update public.room_visits set seen_at = now() - interval '1 year' $$,
  '42501', 'permission denied for table room_visits', 'the member cannot move their visit by hand');
select throws_ok($$ delete from public.room_visits $$,
  '42501', 'permission denied for table room_visits', '…nor delete it');
select is((select new_posts + new_comments from public.my_rooms() where slug = 'home-public'), 0, 'after a visit nothing is new');
select is(public.mark_room_visited('41000000-0000-4000-8000-000000000001'), now(), 'a second visit answers the one before');

-- Then someone else posts and comments; their own comment does not count for them.
select pg_temp.act_as_superuser();
insert into public.posts (room_id, author_id, title, media_kind, media_url, created_at) values
  ('41000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-00000000000d', 'After the visit', 'embed', 'https://vimeo.com/9', now() + interval '1 minute');
insert into public.moments (post_id, author_id, at_seconds, body, created_at) values
  ('42000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000d', 5, 'new one', now() + interval '1 minute'),
  ('42000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000d', 6, 'new two', now() + interval '1 minute'),
  ('42000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-00000000000c', 30, 'mine', now() + interval '1 minute');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000c');
select is((select new_posts from public.my_rooms() where slug = 'home-public'), 1, 'a post made after the visit is new');
select is((select new_comments from public.my_rooms() where slug = 'home-public'), 2, 'others'' comments made after it are new, one''s own are not');
select is((select last_activity_at from public.my_rooms() where slug = 'home-public'), now() + interval '1 minute', 'the room''s last activity is its newest post or comment');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000d');
select is((select new_comments from public.my_rooms() where slug = 'home-public'), 3, 'another member counts from their own joining (the others'' comments, not their own)');
select is((select count(*)::int from public.room_visits), 0, 'another member reads none of a''s visits');

-- The moderator and the owner count too.
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000b');
select is((select new_posts from public.my_rooms() where slug = 'home-gated'), 1, 'the moderator counts the gated room');
select lives_ok($$ select public.mark_room_visited('41000000-0000-4000-8000-000000000002') $$, 'the moderator records a visit to the gated room');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000a');
select is((select count(*)::int from public.my_rooms()), 2, 'the owner lists both rooms');
select is((select role from public.my_rooms() where slug = 'home-gated'), 'owner', '…in their role');

-- A gated membership whose check lapsed: the room, and nothing of its content.
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000f');
select is((select current from public.my_rooms() where slug = 'home-gated'), false, 'a lapsed gated member''s room is listed as not current');
select ok((select new_posts is null and new_comments is null and last_activity_at is null from public.my_rooms() where slug = 'home-gated'),
  '…with no counts and no last activity');
select throws_ok($$ select public.mark_room_visited('41000000-0000-4000-8000-000000000002') $$,
  '42501', 'Only members of this room keep track of their visits', '…and cannot record a visit');

-- ---------------------------------------------------------------------------------------------
-- Who is here and live sessions
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000d');
select public.mark_here('41000000-0000-4000-8000-000000000001', '43000000-0000-4000-8000-0000000000d1');
select public.mark_here('41000000-0000-4000-8000-000000000002', '43000000-0000-4000-8000-0000000000d2');
select pg_temp.act_as_superuser();
create temp table started_sessions (id uuid, room text);
grant select, insert on started_sessions to anon, authenticated;
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000a');
insert into started_sessions select (public.start_listening_session('41000000-0000-4000-8000-000000000001')).id, 'public';
insert into started_sessions select (public.start_listening_session('41000000-0000-4000-8000-000000000002')).id, 'gated';

select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000c');
select is((select here_count from public.my_rooms() where slug = 'home-public'), 1, 'a member sees how many are here');
select is((select here->0->>'display_name' from public.my_rooms() where slug = 'home-public'), 'Bea', '…and who, under their own name');
select is((select live_session_id from public.my_rooms() where slug = 'home-gated'), (select id from started_sessions where room = 'gated'), 'a current member sees the gated room''s live session');
select is((select here_count from public.my_rooms() where slug = 'home-gated'), 1, '…and who is here in it');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000f');
select ok((select live_session_id is null and here_count = 0 and here = '[]'::jsonb from public.my_rooms() where slug = 'home-gated'),
  'a lapsed gated member sees neither the session nor who is here');

select pg_temp.act_as('anon');
select is(array(select slug from public.live_now(50) where slug in ('home-public', 'home-gated')), array['home-public'], 'anon sees the public room''s session only');
select is((select is_member from public.live_now(50) where slug = 'home-public'), false, '…not as a member');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000e');
select is(array(select slug from public.live_now(50) where slug in ('home-public', 'home-gated')), array['home-public'], 'an outsider sees the public room''s session only');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000f');
select is(array(select slug from public.live_now(50) where slug in ('home-public', 'home-gated')), array['home-public'], 'a lapsed gated member sees the public room''s session only');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000c');
select is(array(select slug from public.live_now(50) where slug in ('home-public', 'home-gated') order by slug), array['home-gated', 'home-public'], 'a current member sees both');
select ok((select bool_and(is_member) from public.live_now(50) where slug in ('home-public', 'home-gated')), '…as a member of each');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000a');
select is((select host_name from public.live_now(50) where slug = 'home-public'), (select display_name from public.profiles where id = '40000000-0000-4000-8000-00000000000a'), 'the host is named');

-- A session nobody follows any more is not live (and live_now ends nothing: it only reads).
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = now() - interval '10 minutes' where id = (select id from started_sessions where room = 'public');
select pg_temp.act_as('anon');
select is((select count(*)::int from public.live_now(50) where slug = 'home-public'), 0, 'a session nobody follows is not listed');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000c');
select is((select live_session_id from public.my_rooms() where slug = 'home-public'), null, '…nor shown as live in the member''s rooms');

-- ---------------------------------------------------------------------------------------------
-- The week's moments: public rooms only, for everyone
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select is((select post_title || ' @' || at_seconds || ' ×' || comments from public.top_moments(24) where room_slug = 'home-public' limit 1), 'Public by b @41 ×3',
  'the public moment with the most comments this week comes first, at its first second');
select is((select count(*)::int from public.top_moments(24) where room_slug = 'home-gated'), 0, 'anon never sees a gated room''s moments');
select pg_temp.act_as('authenticated', '40000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.top_moments(24) where room_slug = 'home-gated'), 0, '…nor does its own member, on the public home');
select is((select count(*)::int from public.top_moments(24) where room_slug = 'home-public' and (sample_body like 'old%' or sample_body = 'general')), 0, 'comments older than a week, and general ones, are not moments of this week');
select is((select sample_body from public.top_moments(24) where room_slug = 'home-public' limit 1), 'yes', 'the newest comment of the moment stands for it');

select pg_temp.act_as('service_role');
select is((select count(*)::int from public.room_visits where room_id in ('41000000-0000-4000-8000-000000000001', '41000000-0000-4000-8000-000000000002')), 2, 'service_role reads every visit');

select * from finish();
rollback;
