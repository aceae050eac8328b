-- Quotas and rate limits per account, in Postgres: rooms a day, posts per room an hour, comments
-- and reactions a minute, wallet-link attempts; refused with SQLSTATE PT429 and the wait in words.
-- What is counted is the actions taken (deleting does not buy more); the service role is not
-- limited; owners and moderators post to their rooms freely; a window that has passed frees it.
begin;
create extension if not exists pgtap with schema extensions;
select plan(26);

\ir helpers/roles.psql
\ir helpers/rate_burst.psql

-- o: owner of room A and B; d: moderator of A; m and n: members of both
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('7a000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'rl-owner@example.test', '{"username":"rl_owner"}', now(), now()),
  ('7a000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'rl-mod@example.test', '{"username":"rl_mod"}', now(), now()),
  ('7a000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'rl-member@example.test', '{"username":"rl_member"}', now(), now()),
  ('7a000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'rl-other@example.test', '{"username":"rl_other"}', now(), now());
insert into public.rooms (id, slug, name, owner_id) values
  ('7b000000-0000-4000-8000-000000000001', 'rl-room-a', 'A', '7a000000-0000-4000-8000-00000000000a'),
  ('7b000000-0000-4000-8000-000000000002', 'rl-room-b', 'B', '7a000000-0000-4000-8000-00000000000a');
insert into public.memberships (room_id, user_id, role) values
  ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000d', 'moderator'),
  ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'member'),
  ('7b000000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-00000000000b', 'member'),
  ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000c', 'member');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('7c000000-0000-4000-8000-000000000001', '7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000a', 'seed', 'embed', 'https://vimeo.com/1');
-- 13 comments to react to (5 emoji each: 65 possible reactions), written as the server
insert into public.moments (id, post_id, author_id, body)
select ('7d000000-0000-4000-8000-0000000000' || lpad(i::text, 2, '0'))::uuid, '7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000a', 'seed ' || i
from generate_series(1, 13) i;


select is((select array_agg(action || ' ' || max_count || '/' || per order by action) from private.rate_limits()),
  array['comments 20/00:01:00', 'posts 20/01:00:00', 'reactions 60/00:01:00', 'ready marks 60/00:01:00', 'recovery codes 5/00:15:00', 'reports 20/01:00:00', 'rooms 10/1 day', 'waitlist changes 20/00:01:00', 'wallet links 30/00:10:00'],
  'the limits, in one place: comments 20 a minute, posts 20 per room an hour, reactions 60 a minute, ready marks that are news 60 a minute, recovery-code tries 5 in 15 minutes, reports 20 an hour, rooms 10 a day, DJ waitlist changes 20 a minute, wallet-link attempts 30 in 10 minutes');
select is(private.wait_words(interval '7.2 seconds'), '8 seconds', 'waits read in whole seconds, rounded up');
select is(private.wait_words(interval '0.1 seconds'), '1 second', '…at least one');
select is(private.wait_words(interval '61 seconds'), '2 minutes', '…in minutes past a minute');
select is(private.wait_words(interval '23 hours 10 minutes'), '24 hours', '…in hours past an hour');

-- ---------------------------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000b', 25,
  $$insert into public.moments (post_id, author_id, body) values ('7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'burst %s')$$),
  20, 'a member comments 20 times in a minute, and the 21st is refused');
select pg_temp.act_as('authenticated', '7a000000-0000-4000-8000-00000000000b');
select throws_like($$insert into public.moments (post_id, author_id, body) values ('7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'one more')$$,
  'You''re commenting quickly — try again in % second%', '…with the wait in words (SQLSTATE PT429, HTTP 429)');
select pg_temp.act_as_superuser();
delete from public.moments where body like 'burst %' and author_id = '7a000000-0000-4000-8000-00000000000b';
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000b', 1,
  $$insert into public.moments (post_id, author_id, body) values ('7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'after deleting %s')$$),
  0, 'deleting the comments does not buy more');
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000c', 1,
  $$insert into public.moments (post_id, author_id, body) values ('7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000c', 'mine %s')$$),
  1, 'another member is not held back by it');
update private.rate_events set at = at - interval '61 seconds' where person = '7a000000-0000-4000-8000-00000000000b' and action = 'comments';
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000b', 1,
  $$insert into public.moments (post_id, author_id, body) values ('7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'a minute later %s')$$),
  1, 'a minute later the member comments again');
select is((select count(*)::int from private.rate_events where person = '7a000000-0000-4000-8000-00000000000b' and action = 'comments'), 1,
  '…and the counted actions that left the window are gone from the ledger');
select lives_ok($$insert into public.moments (post_id, author_id, body) select '7c000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'server ' || i from generate_series(1, 30) i$$,
  'the service role (the server, seeds) is not limited');

-- ---------------------------------------------------------------------------------------------
-- Reactions
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000b', 65,
  $$insert into public.reactions (moment_id, user_id, emoji)
    select ('7d000000-0000-4000-8000-0000000000' || lpad(((%1$s - 1) / 5 + 1)::text, 2, '0'))::uuid, '7a000000-0000-4000-8000-00000000000b',
           (array['🔥', '❤️', '😂', '😮', '👏'])[(%1$s - 1) %% 5 + 1]$$),
  60, 'a member reacts 60 times in a minute, and the 61st is refused');
select pg_temp.act_as('authenticated', '7a000000-0000-4000-8000-00000000000b');
select throws_like($$insert into public.reactions (moment_id, user_id, emoji) values ('7d000000-0000-4000-8000-000000000013', '7a000000-0000-4000-8000-00000000000b', '👏')$$,
  'You''re reacting quickly — try again in %', '…in words');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- Posts: per room, an hour; owners and moderators post freely
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000b', 22,
  $$insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'post %1$s', 'embed', 'https://vimeo.com/%1$s')$$),
  20, 'a member posts 20 times in an hour in a room, and the 21st is refused');
select pg_temp.act_as('authenticated', '7a000000-0000-4000-8000-00000000000b');
select throws_like($$insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000b', 'more', 'embed', 'https://vimeo.com/99')$$,
  'You''re posting quickly in this room — try again in % minute%', '…in words, in minutes');
select pg_temp.act_as_superuser();
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000b', 1,
  $$insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('7b000000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-00000000000b', 'elsewhere %1$s', 'embed', 'https://vimeo.com/b%1$s')$$),
  1, 'the same member still posts in another room');
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000d', 25,
  $$insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000d', 'mod %1$s', 'embed', 'https://vimeo.com/m%1$s')$$),
  25, 'a moderator posts to their room without a limit');
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000a', 25,
  $$insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000a', 'owner %1$s', 'embed', 'https://vimeo.com/o%1$s')$$),
  25, '…and so does the owner');
select pg_temp.act_as('authenticated', '7a000000-0000-4000-8000-00000000000c');
select throws_ok($$insert into public.posts (room_id, author_id, title, media_kind, media_url) values ('7b000000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-00000000000c', 'x', 'embed', 'not a link')$$,
  '23514', null, 'a post refused for another reason (here, the link rule) …');
select pg_temp.act_as_superuser();
select is((select count(*)::int from private.rate_events where person = '7a000000-0000-4000-8000-00000000000c' and action = 'posts'), 0, '…is not counted');

-- ---------------------------------------------------------------------------------------------
-- Rooms: ten a day
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.burst('7a000000-0000-4000-8000-00000000000c', 12, $$select public.create_room('rl-new-%1$s', 'New %1$s')$$),
  10, 'an account creates 10 rooms in a day, and the 11th is refused');
select pg_temp.act_as('authenticated', '7a000000-0000-4000-8000-00000000000c');
select throws_ok($$select public.create_room('rl-new-eleven', 'Eleven')$$, 'PT429', 'You''ve created 10 rooms today — try again in 24 hours', '…in words, in hours');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.rooms where owner_id = '7a000000-0000-4000-8000-00000000000c'), 10, '…and nothing of the refused one is kept');

-- ---------------------------------------------------------------------------------------------
-- Wallet-link attempts (nonces the link-wallet function issues for the person)
-- ---------------------------------------------------------------------------------------------
create function pg_temp.nonces(person uuid, n int) returns int
language plpgsql as $$
declare
  done int := 0;
begin
  for i in 1..n loop
    begin
      insert into public.wallet_nonces (nonce, user_id) values ('nonce' || md5(person::text || i), person);
      done := done + 1;
    exception when sqlstate 'PT429' then
      exit;
    end;
  end loop;
  return done;
end $$;
select is(pg_temp.nonces('7a000000-0000-4000-8000-00000000000b', 32), 30, '30 attempts to link a wallet in 10 minutes, then a refusal');
select throws_like($$insert into public.wallet_nonces (nonce, user_id) values ('nonceoneMore0000000', '7a000000-0000-4000-8000-00000000000b')$$,
  'Too many attempts to link a wallet — try again in % minute%', '…in words');

select * from finish();
rollback;
