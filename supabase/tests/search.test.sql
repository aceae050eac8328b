-- Searching posts and comments (20261130002000_search_posts_and_comments.sql): accents folded,
-- best match first, the last word a prefix; a gated room's content only for its current members;
-- hidden, held and deleted items never to others; anything typed is harmless; nothing typed finds nothing;
-- the stored words (20261130002200_search_documents_stored.sql) never ride the room's channel.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(25);

-- owner o (…a), member k (…b), gated member g (…c, fresh), lapsed gated member l (…d), outsider x (…e)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('4a000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'srch-owner@example.test', '{"username":"srch_owner"}', now(), now()),
  ('4a000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'srch-member@example.test', '{"username":"srch_member"}', now(), now()),
  ('4a000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'srch-gated@example.test', '{"username":"srch_gated"}', now(), now()),
  ('4a000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'srch-lapsed@example.test', '{"username":"srch_lapsed"}', now(), now()),
  ('4a000000-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'srch-outsider@example.test', '{"username":"srch_outsider"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('4a100000-0000-4000-8000-000000000001', 'srch-open', 'Search open', '4a000000-0000-4000-8000-00000000000a', 'public'),
  ('4a100000-0000-4000-8000-000000000002', 'srch-gated', 'Search gated', '4a000000-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('4a100000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role, verified_at) values
  ('4a100000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000b', 'member', null),
  ('4a100000-0000-4000-8000-000000000002', '4a000000-0000-4000-8000-00000000000c', 'member', now()),
  ('4a100000-0000-4000-8000-000000000002', '4a000000-0000-4000-8000-00000000000d', 'member', now() - interval '30 days');
insert into public.posts (id, room_id, author_id, title, body, media_kind, media_url) values
  ('4a200000-0000-4000-8000-000000000001', '4a100000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000a',
   'Zyxophone Café session', 'Recorded live in a small room', 'embed', 'https://vimeo.com/1'),
  ('4a200000-0000-4000-8000-000000000002', '4a100000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000a',
   'Another tune', 'Someone mentions the zyxophone once in passing, among many other words about it', 'embed', 'https://vimeo.com/2'),
  ('4a200000-0000-4000-8000-000000000003', '4a100000-0000-4000-8000-000000000002', '4a000000-0000-4000-8000-00000000000a',
   'Members only zyxophone', '', 'embed', 'https://vimeo.com/3'),
  ('4a200000-0000-4000-8000-000000000004', '4a100000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000a',
   'Hidden zyxophone post', '', 'embed', 'https://vimeo.com/4');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('4a300000-0000-4000-8000-000000000001', '4a200000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000b', 42, 'The cafe kwirtlebass drop at this point'),
  ('4a300000-0000-4000-8000-000000000002', '4a200000-0000-4000-8000-000000000003', '4a000000-0000-4000-8000-00000000000c', 7, 'Gated kwirtlebass secret'),
  ('4a300000-0000-4000-8000-000000000003', '4a200000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000b', 50, 'Reported kwirtlebass words'),
  ('4a300000-0000-4000-8000-000000000004', '4a200000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000b', 51, 'Held kwirtlebass words'),
  ('4a300000-0000-4000-8000-000000000005', '4a200000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000b', 52, 'Deleted kwirtlebass words'),
  ('4a300000-0000-4000-8000-000000000006', '4a200000-0000-4000-8000-000000000004', '4a000000-0000-4000-8000-00000000000b', 53, 'Under a hidden kwirtlebass post');
update public.posts set hidden_at = now() where id = '4a200000-0000-4000-8000-000000000004';
update public.moments set hidden_at = now() where id = '4a300000-0000-4000-8000-000000000003';
update public.moments set held_at = now() where id = '4a300000-0000-4000-8000-000000000004';
-- A comment deleted while it has a reply stays as "Comment deleted": its words are gone.
insert into public.moments (post_id, author_id, parent_id, body) values
  ('4a200000-0000-4000-8000-000000000001', '4a000000-0000-4000-8000-00000000000a', '4a300000-0000-4000-8000-000000000005', 'A reply');
delete from public.moments where id = '4a300000-0000-4000-8000-000000000005';

-- The stored search words (20261130002200_search_documents_stored.sql) stay off the room's channel.
select ok((select count(*) from realtime.messages where topic like 'room:4a100000-0000-4000-8000-000000000001%'
  and event in ('posts', 'moments') and payload -> 'record' ? 'body') >= 5, 'the open room''s channel carried its posts and comments');
select is((select count(*)::int from realtime.messages where topic like 'room:4a100000-0000-4000-8000-000000000001%'
  and event in ('posts', 'moments') and payload -> 'record' ? 'search_document'), 0, 'without their stored search words');

create function pg_temp.found(q text) returns text language sql as $$
  select coalesce(string_agg(right(id::text, 1) || ':' || kind, ',' order by rank desc, id desc), '') from public.search_content(q) $$;
create function pg_temp.ids(q text) returns uuid[] language sql as $$
  select coalesce(array_agg(id order by rank desc, id desc), '{}') from public.search_content(q) $$;

select pg_temp.act_as('anon');
select is(pg_temp.found('zyxophone'), '1:post,2:post', 'anon finds the public posts by a word of their title or text, the title''s match first');
select is(pg_temp.found('ZYXOPHONE cafe'), '1:post', 'accents and case are folded: "cafe" finds "Café"');
select is(pg_temp.found('zyxophone café'), '1:post', 'and the accented form finds it too');
select ok('4a300000-0000-4000-8000-000000000001'::uuid = any(pg_temp.ids('cafe')), '"cafe" finds the comment that says "cafe"');
select is(pg_temp.found('kwirtlebass'), '1:comment', 'anon finds the public comment only: nothing gated, hidden, held, deleted or under a hidden post');
select is(pg_temp.found('kwirtleb'), '1:comment', 'the last word matches as a prefix');
select is(pg_temp.found('"kwirtleb"'), '', 'but not inside quotes');
select is((select snippet from public.search_content('kwirtlebass')), 'The cafe ' || U&'\E000' || 'kwirtlebass' || U&'\E001' || ' drop at this point',
  'the snippet marks the matched word');
select is((select row(post_id, room_slug, room_name, post_title, at_seconds, author_username)::text from public.search_content('kwirtlebass')),
  row('4a200000-0000-4000-8000-000000000001'::uuid, 'srch-open', 'Search open', 'Zyxophone Café session', 42::double precision, 'srch_member')::text,
  'a comment comes with its post, room, time and author');
select is(pg_temp.found(''), '', 'an empty query finds nothing');
select is(pg_temp.found('   '), '', 'a blank one neither');
select is(pg_temp.found('!!! & | :*'), '', 'nor one of punctuation alone');
select lives_ok($$ select * from public.search_content(''' ; drop table public.posts; --') $$, 'injection-like input is only words');
select lives_ok($$ select * from public.search_content(repeat('a(b)|!''"&:* ', 400)) $$, 'and any long, odd input answers');
select is((select count(*)::int from public.posts where id = '4a200000-0000-4000-8000-000000000001'), 1, 'and the posts are all still there');

select is((select count(*)::int from public.moments where id = '4a300000-0000-4000-8000-000000000005' and deleted_at is not null), 1,
  'the deleted comment is still there, without its words');

select pg_temp.act_as('authenticated', '4a000000-0000-4000-8000-00000000000e');
select is(pg_temp.found('kwirtlebass'), '1:comment', 'someone signed in outside the gated room finds what anon finds');
select pg_temp.act_as('authenticated', '4a000000-0000-4000-8000-00000000000c');
select is(pg_temp.found('kwirtlebass'), '2:comment,1:comment', 'a current member of the gated room also finds its comment');
select ok('4a200000-0000-4000-8000-000000000003'::uuid = any(pg_temp.ids('zyxophone')), 'and its post');
select pg_temp.act_as('authenticated', '4a000000-0000-4000-8000-00000000000d');
select is(pg_temp.found('kwirtlebass'), '1:comment', 'a member whose gated membership lapsed finds nothing of the gated room');
select pg_temp.act_as('authenticated', '4a000000-0000-4000-8000-00000000000b');
select is(pg_temp.found('kwirtlebass'), '1:comment', 'the author of the hidden, held and deleted comments finds none of them either');

-- Paging: the next page starts after the last row's rank and id.
select is((select count(*)::int from public.search_content('zyxophone', 1)), 1, 'page_size limits a page');
select is((select string_agg(right(n.id::text, 1), ',') from public.search_content('zyxophone', 1) f,
  public.search_content('zyxophone', 5, f.rank, f.id) n), '2', 'the cursor gives the rest');

select * from finish();
rollback;
