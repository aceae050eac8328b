-- A post's heat (20261201000200_post_heat.sql): public.post_heat counts exactly the comments and
-- reactions the caller may read — anon and members on a public room, members, non-members, a lapsed
-- and a banned member on a gated one; hidden and held comments (and their reactions) only for their
-- author and the moderators; comments under a hidden post only for those who may read them —
-- replies at their parent's time, deleted and general comments left out; its hottest peaks ranked;
-- bad input refused. It runs with the caller's rights, so the tables' policies decide.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(50);

-- owner o (…a), moderator m (…b), member a (…c), member b (…d), outsider n (…e), lapsed l (…f), banned x (…9)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('4e000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'heat-owner@example.test', '{"username":"heat_owner"}', now(), now()),
  ('4e000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'heat-mod@example.test', '{"username":"heat_mod"}', now(), now()),
  ('4e000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'heat-a@example.test', '{"username":"heat_a"}', now(), now()),
  ('4e000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'heat-b@example.test', '{"username":"heat_b"}', now(), now()),
  ('4e000000-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'heat-out@example.test', '{"username":"heat_out"}', now(), now()),
  ('4e000000-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'heat-lapsed@example.test', '{"username":"heat_lapsed"}', now(), now()),
  ('4e000000-0000-4000-8000-000000000009', 'authenticated', 'authenticated', 'heat-banned@example.test', '{"username":"heat_banned"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('4e100000-0000-4000-8000-000000000001', 'heat-public', 'Heat public', '4e000000-0000-4000-8000-00000000000a', 'public'),
  ('4e100000-0000-4000-8000-000000000002', 'heat-gated', 'Heat gated', '4e000000-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('4e100000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role) values
  ('4e100000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000b', 'moderator'),
  ('4e100000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 'member'),
  ('4e100000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 'member'),
  ('4e100000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-00000000000c', 'member'),
  ('4e100000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-00000000000f', 'member'),
  ('4e100000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-000000000009', 'member');
select pg_temp.verify_gated_members();

-- p1 public (2 minutes), p2 gated (length not known yet), p3 public, hidden by reports below
insert into public.posts (id, room_id, author_id, title, media_kind, media_url, duration_seconds) values
  ('4e200000-0000-4000-8000-000000000001', '4e100000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 'Heat', 'embed', 'https://vimeo.com/1', 120),
  ('4e200000-0000-4000-8000-000000000002', '4e100000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-00000000000c', 'Gated heat', 'embed', 'https://vimeo.com/2', null),
  ('4e200000-0000-4000-8000-000000000003', '4e100000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 'Reported', 'embed', 'https://vimeo.com/3', 120);
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('4e300000-0000-4000-8000-000000000001', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 14.2, 'the drop'),
  ('4e300000-0000-4000-8000-000000000002', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 15, 'yes'),
  ('4e300000-0000-4000-8000-000000000003', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 15.5, 'yes!'),
  ('4e300000-0000-4000-8000-000000000004', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 55, 'the bridge'),
  ('4e300000-0000-4000-8000-000000000005', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 57, 'reported'),
  ('4e300000-0000-4000-8000-000000000006', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 95, 'held'),
  ('4e300000-0000-4000-8000-000000000007', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 101, 'to be deleted'),
  ('4e300000-0000-4000-8000-000000000008', '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', null, 'general'),
  ('4e300000-0000-4000-8000-000000000021', '4e200000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-00000000000c', 30, 'gated one'),
  ('4e300000-0000-4000-8000-000000000022', '4e200000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-00000000000c', 60, 'gated two'),
  ('4e300000-0000-4000-8000-000000000031', '4e200000-0000-4000-8000-000000000003', '4e000000-0000-4000-8000-00000000000d', 10, 'under a reported post');
-- replies: at their parent's time (14.2, and 101 under the comment deleted below)
insert into public.moments (id, post_id, parent_id, author_id, body) values
  ('4e300000-0000-4000-8000-000000000011', '4e200000-0000-4000-8000-000000000001', '4e300000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 'agreed'),
  ('4e300000-0000-4000-8000-000000000017', '4e200000-0000-4000-8000-000000000001', '4e300000-0000-4000-8000-000000000007', '4e000000-0000-4000-8000-00000000000c', 'a reply that stays');
insert into public.reactions (moment_id, user_id, emoji) values
  ('4e300000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', '🔥'),
  ('4e300000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000b', '👏'),
  ('4e300000-0000-4000-8000-000000000005', '4e000000-0000-4000-8000-00000000000c', '😮'),
  ('4e300000-0000-4000-8000-000000000021', '4e000000-0000-4000-8000-00000000000c', '🔥');
-- b's comment at 0:57 hidden by reports, a's at 1:35 held by a blocked term, b's at 1:41 deleted above its reply, p3 hidden
update public.moments set hidden_at = now() where id = '4e300000-0000-4000-8000-000000000005';
update public.moments set held_at = now() where id = '4e300000-0000-4000-8000-000000000006';
update public.moments set deleted_at = now(), body = '' where id = '4e300000-0000-4000-8000-000000000007';
update public.posts set hidden_at = now() where id = '4e200000-0000-4000-8000-000000000003';

create function pg_temp.heat(post uuid, parts int) returns text language sql as $$
  select coalesce(string_agg(format('%s:%s-%s c%s r%s%s@%s', bucket, starts_at, ends_at, comments, reactions,
                                    coalesce(' hot' || hot, ''), peak_at), ' | ' order by bucket), '')
  from public.post_heat(post, parts) $$;
-- What the caller reads of the post with plain selects: timed comments that are not deleted, and their reactions.
create function pg_temp.readable(post uuid) returns text language sql as $$
  select format('c%s r%s',
    (select count(*) from public.moments m where m.post_id = post and m.at_seconds is not null and m.deleted_at is null),
    (select count(*) from public.reactions r join public.moments m on m.id = r.moment_id
      where m.post_id = post and m.at_seconds is not null and m.deleted_at is null)) $$;
create function pg_temp.counted(post uuid) returns text language sql as $$
  select format('c%s r%s', coalesce(sum(comments), 0), coalesce(sum(reactions), 0)) from public.post_heat(post, 12) $$;

select is((select prosecdef from pg_proc where oid = 'public.post_heat(uuid, integer)'::regprocedure), false,
  'post_heat runs with the caller''s rights: the tables'' policies decide');

-- The public room
select pg_temp.act_as('anon');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c4 r2 hot1@14.2 | 5:50-60 c1 r0 hot2@55 | 10:100-110 c1 r0 hot3@101',
  'anon: the drop (a comment, its reply, two more; two reactions) hottest, at its busiest second; the hidden, held, deleted and general comments left out, the reply under the deleted one kept');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), pg_temp.readable('4e200000-0000-4000-8000-000000000001'), 'anon: exactly what anon reads');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000003', 12), '', 'anon: nothing under a hidden post');

select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000e');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c4 r2 hot1@14.2 | 5:50-60 c1 r0 hot2@55 | 10:100-110 c1 r0 hot3@101', 'a non-member of a public room counts what anon does');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), pg_temp.readable('4e200000-0000-4000-8000-000000000001'), 'a non-member: exactly what they read');

select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000d');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c4 r2 hot1@14.2 | 5:50-60 c2 r1 hot2@57 | 10:100-110 c1 r0 hot3@101',
  'the author of the hidden comment counts it and its reaction; not someone else''s held one');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), pg_temp.readable('4e200000-0000-4000-8000-000000000001'), 'member b: exactly what they read');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000003'), 'c1 r0', 'under a hidden post, a commenter counts their own comment (the post itself is not theirs to read)');

select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000c');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c4 r2 hot1@14.2 | 5:50-60 c1 r0 hot2@55 | 9:90-100 c1 r0 hot3@95 | 10:100-110 c1 r0@101',
  'the author of the held comment counts it, not the hidden one; three hot moments at most (equals: the earlier first)');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), pg_temp.readable('4e200000-0000-4000-8000-000000000001'), 'member a: exactly what they read');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000003', 12), '1:10-20 c1 r0 hot1@10', 'the hidden post''s author counts the comments under it');

select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000b');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c4 r2 hot1@14.2 | 5:50-60 c2 r1 hot2@57 | 9:90-100 c1 r0 hot3@95 | 10:100-110 c1 r0@101',
  'a moderator counts hidden and held comments');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), pg_temp.readable('4e200000-0000-4000-8000-000000000001'), 'the moderator: exactly what they read');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000003'), 'c1 r0', 'a moderator counts the comments under a hidden post');

select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000a');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), 'c8 r3', 'the owner counts everything timed and not deleted');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000001'), pg_temp.readable('4e200000-0000-4000-8000-000000000001'), 'the owner: exactly what they read');

-- Parts: the media's length cut in equal parts; one part is the whole; the last second belongs to the last part.
select pg_temp.act_as('anon');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 1), '0:0-120 c6 r2 hot1@14.2', 'one part holds everything');
select is((select count(*)::int from public.post_heat('4e200000-0000-4000-8000-000000000001', 200)), 4, '200 parts: only those with something in them');
select is((select string_agg(bucket::text, ',' order by bucket) from public.post_heat('4e200000-0000-4000-8000-000000000001', 200)), '23,25,91,168',
  '…each at its own part (0.6 s each)');

-- The gated room: the post's length is not known yet, so the parts run to its last comment.
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000c');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000002', 2), '1:30-60 c2 r1 hot1@30', 'a member counts the gated post''s comments, the last one in the last part');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000002', 4), '2:30-45 c1 r1 hot1@30 | 3:45-60 c1 r0@60', 'four parts: 15 s each');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000002'), pg_temp.readable('4e200000-0000-4000-8000-000000000002'), 'the member: exactly what they read');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000a');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000002'), 'c2 r1', 'the gated room''s owner counts them');
select pg_temp.act_as('anon');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000002', 12), '', 'anon counts nothing of a gated room');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000e');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000002', 12), '', 'a non-member counts nothing of a gated room');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-000000000009');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000002'), 'c2 r1', 'a member about to be banned counts them');

-- A lapsed membership (its balance check older than its lifetime) and a ban
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - private.gated_membership_lifetime() - interval '1 minute'
  where user_id = '4e000000-0000-4000-8000-00000000000f';
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000f');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000002', 12), '', 'a lapsed member counts nothing');
select is(pg_temp.readable('4e200000-0000-4000-8000-000000000002'), 'c0 r0', '…as they read nothing');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.ban_member('4e100000-0000-4000-8000-000000000002', '4e000000-0000-4000-8000-000000000009') $$, 'the owner bans x');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-000000000009');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000002', 12), '', 'a banned member counts nothing');
select is(pg_temp.readable('4e200000-0000-4000-8000-000000000002'), 'c0 r0', '…as they read nothing');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000c');
select is(pg_temp.counted('4e200000-0000-4000-8000-000000000002'), 'c2 r1', 'the other member still counts them');

-- Live: a new comment, a reaction, a deletion change the next answer.
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000d');
insert into public.moments (post_id, author_id, at_seconds, body) values ('4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 56, 'and here');
insert into public.reactions (moment_id, user_id, emoji) values ('4e300000-0000-4000-8000-000000000004', '4e000000-0000-4000-8000-00000000000d', '❤️');
select pg_temp.act_as('anon');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c4 r2 hot1@14.2 | 5:50-60 c2 r1 hot2@55 | 10:100-110 c1 r0 hot3@101', 'a new comment and reaction count at once');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000c');
delete from public.moments where id = '4e300000-0000-4000-8000-000000000001';
select pg_temp.act_as('anon');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c3 r0 hot1@15 | 5:50-60 c2 r1 hot2@55 | 10:100-110 c1 r0 hot3@101',
  'a comment deleted above its reply stops counting, with its reactions; its reply still counts (equal heat: more comments first)');

-- Peaks: a part next to a hotter one is not a hot moment of its own.
select pg_temp.act_as_superuser();
insert into public.moments (post_id, author_id, at_seconds, body)
  select '4e200000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000d', 21 + i * 0.1, 'more ' || i from generate_series(1, 5) i;
select pg_temp.act_as('anon');
select is(pg_temp.heat('4e200000-0000-4000-8000-000000000001', 12),
  '1:10-20 c3 r0@15 | 2:20-30 c5 r0 hot1@21.1 | 5:50-60 c2 r1 hot2@55 | 10:100-110 c1 r0 hot3@101',
  'the busier of two neighbouring parts is the hot one');

-- A comment exactly where a part starts is in that part (20 s of 40 s, 48 parts of 0.833… s: part 24).
select pg_temp.act_as_superuser();
insert into public.posts (id, room_id, author_id, title, media_kind, media_url, duration_seconds) values
  ('4e200000-0000-4000-8000-000000000004', '4e100000-0000-4000-8000-000000000001', '4e000000-0000-4000-8000-00000000000c', 'Forty seconds', 'embed', 'https://vimeo.com/4', 40);
insert into public.moments (post_id, author_id, at_seconds, body) values
  ('4e200000-0000-4000-8000-000000000004', '4e000000-0000-4000-8000-00000000000c', 20, 'on the edge');
select pg_temp.act_as('anon');
select is((select bucket from public.post_heat('4e200000-0000-4000-8000-000000000004', 48)), 24, 'a comment on a part''s first instant is in that part');

-- Bad input
select throws_ok($$ select * from public.post_heat('4e200000-0000-4000-8000-000000000001', 0) $$, '22023', 'A heat strip has between 1 and 200 parts', 'no parts: refused');
select throws_ok($$ select * from public.post_heat('4e200000-0000-4000-8000-000000000001', 201) $$, '22023', 'A heat strip has between 1 and 200 parts', 'over 200 parts: refused');
select throws_ok($$ select * from public.post_heat('4e200000-0000-4000-8000-000000000001', null) $$, '22023', 'A heat strip has between 1 and 200 parts', 'parts not given: refused');
select is(pg_temp.heat('4e2fffff-0000-4000-8000-000000000001', 12), '', 'an unknown post: nothing');
select is(pg_temp.heat(null, 12), '', 'no post: nothing');
select is((select count(*)::int from public.post_heat('4e200000-0000-4000-8000-000000000001')), 5, 'the default: 48 parts of 2.5 s');

-- Who may call it: the API's roles
select ok(has_function_privilege('anon', 'public.post_heat(uuid, integer)', 'execute'), 'anon may call post_heat');
select ok(has_function_privilege('authenticated', 'public.post_heat(uuid, integer)', 'execute'), 'signed-in callers may call it');

-- The moments read rule asks for hidden posts once per statement, with the same answer as before.
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000d');
select is((select array_agg(p) from private.posts_hidden_from_caller() p), array['4e200000-0000-4000-8000-000000000003'::uuid],
  'the posts hidden from someone who did not write them');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from private.posts_hidden_from_caller()), 0, 'none is hidden from its own author');
select pg_temp.act_as('anon');
select is((select count(*)::int from public.moments where post_id = '4e200000-0000-4000-8000-000000000003'), 0, 'anon reads no comment under the hidden post');
select pg_temp.act_as('authenticated', '4e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.moments where post_id = '4e200000-0000-4000-8000-000000000003'), 1, 'its commenter reads their own');
select pg_temp.act_as_superuser();
select ok((select qual from pg_policies where tablename = 'moments' and cmd = 'SELECT') like '%posts_hidden_from_caller()%',
  'the moments read rule asks for the hidden posts once, not per comment');

select * from finish();
rollback;
