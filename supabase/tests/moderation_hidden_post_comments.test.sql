-- Comments under a hidden post (20261129001100_comments_under_a_hidden_post.sql): while reports hide
-- a post, its comments are read only by the post's author, each comment's own author and the room's
-- owner and moderators — over REST and the live channel — and come back when the post is shown again.
-- Its title stays hidden where a live session names what it plays (20261129001200: live_now,
-- who_is_here).
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(15);

-- owner o (…a), moderator m (…b), post author p (…c), commenter k (…d), another member n (…e)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('49000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'hpc-owner@example.test', '{"username":"hpc_owner"}', now(), now()),
  ('49000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'hpc-mod@example.test', '{"username":"hpc_mod"}', now(), now()),
  ('49000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'hpc-poster@example.test', '{"username":"hpc_poster"}', now(), now()),
  ('49000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'hpc-commenter@example.test', '{"username":"hpc_commenter"}', now(), now()),
  ('49000000-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'hpc-other@example.test', '{"username":"hpc_other"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('49100000-0000-4000-8000-000000000001', 'hpc-room', 'Hidden post comments', '49000000-0000-4000-8000-00000000000a', 'public');
insert into public.memberships (room_id, user_id, role) values
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000b', 'moderator'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', 'member'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000d', 'member'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000e', 'member');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('49200000-0000-4000-8000-000000000001', '49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', 'Reported', 'embed', 'https://vimeo.com/1'),
  ('49200000-0000-4000-8000-000000000002', '49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', 'Fine', 'embed', 'https://vimeo.com/2');
insert into public.moments (post_id, author_id, body) values
  ('49200000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', 'from the poster'),
  ('49200000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000d', 'from the commenter');
-- Reports hid the post.
update public.posts set hidden_at = now() where id = '49200000-0000-4000-8000-000000000001';

create function pg_temp.seen() returns int language sql as $$
  select count(*)::int from public.moments where post_id = '49200000-0000-4000-8000-000000000001' $$;

select pg_temp.act_as('anon');
select is(pg_temp.seen(), 0, 'anon reads no comment under a hidden post of a public room');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000e');
select is(pg_temp.seen(), 0, 'another member reads none either');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000d');
select is((select array_agg(body)::text from public.moments where post_id = '49200000-0000-4000-8000-000000000001'), '{"from the commenter"}',
  'a commenter reads their own comment and no one else''s');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000c');
select is(pg_temp.seen(), 2, 'the post''s author reads every comment under it');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000b');
select is(pg_temp.seen(), 2, 'a moderator reads them all');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000a');
select is(pg_temp.seen(), 2, 'so does the owner');

-- The live channel: a comment under the hidden post is not sent to the room; one under a shown post is.
select pg_temp.act_as_superuser();
delete from realtime.messages where topic like 'room:49100000-0000-4000-8000-000000000001%';
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, body) values ('49200000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', 'still here?');
update public.moments set body = 'edited under the hidden post' where body = 'from the poster';
insert into public.moments (post_id, author_id, body) values ('49200000-0000-4000-8000-000000000002', '49000000-0000-4000-8000-00000000000c', 'on the fine post');
select pg_temp.act_as_superuser();
select is((select count(*)::int from realtime.messages where topic like 'room:49100000-0000-4000-8000-000000000001%' and event = 'moments'
  and payload -> 'record' ->> 'post_id' = '49200000-0000-4000-8000-000000000001'), 0,
  'a comment made or edited under the hidden post is not sent to the room');
select is((select count(*)::int from realtime.messages where topic like 'room:49100000-0000-4000-8000-000000000001%' and event = 'moments'
  and payload -> 'record' ->> 'body' = 'on the fine post'), 1, 'a comment under a shown post is');

-- A session plays the hidden post, and the poster is here playing it: its title shows only to the
-- post's author and the room's moderators.
insert into public.listening_sessions (room_id, started_by, host_id, host_seen_at, post_id, playing) values
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000a', '49000000-0000-4000-8000-00000000000a', now(),
   '49200000-0000-4000-8000-000000000001', true);
insert into public.presence (room_id, user_id, tab_id, session_id, playing_post_id) select
  '49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', gen_random_uuid(), s.id, '49200000-0000-4000-8000-000000000001'
  from public.listening_sessions s where s.room_id = '49100000-0000-4000-8000-000000000001';
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000e');
select is((select post_title from public.live_now(50) where room_id = '49100000-0000-4000-8000-000000000001'), null,
  'live now does not name the hidden post to another member');
select is((select playing_title from public.who_is_here('49100000-0000-4000-8000-000000000001') where user_id = '49000000-0000-4000-8000-00000000000c'), null,
  'nor does who is here');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000b');
select is((select post_title from public.live_now(50) where room_id = '49100000-0000-4000-8000-000000000001'), 'Reported',
  'a moderator reads its title in live now');
select is((select playing_title from public.who_is_here('49100000-0000-4000-8000-000000000001') where user_id = '49000000-0000-4000-8000-00000000000c'), 'Reported',
  '…and in who is here');
select pg_temp.act_as_superuser();

-- Shown again (the reports dismissed): its comments are everyone's again.
update public.posts set hidden_at = null where id = '49200000-0000-4000-8000-000000000001';
select pg_temp.act_as('anon');
select is(pg_temp.seen(), 3, 'once the post is shown again, anon reads its comments');
select pg_temp.act_as('authenticated', '49000000-0000-4000-8000-00000000000e');
select is(pg_temp.seen(), 3, '…and so does every member');
select pg_temp.act_as_superuser();
select ok(not private.post_hidden_from_caller('49200000-0000-4000-8000-000000000001'), 'a shown post is hidden from nobody');

select * from finish();
rollback;
