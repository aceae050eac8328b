-- A profile's lists (20261130002100_profile_activity.sql): profile_rooms and profile_activity show
-- only what everyone may see, the same for everyone — anon, an outsider, a member of the gated room,
-- a moderator of the public room, and the person themselves: public rooms only, never a gated room's
-- membership or content, nothing hidden, held or deleted, nothing under a hidden post. Replies count
-- as comments. Pages by (created_at, id) cover the whole list once, in order.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(27);

-- the person p (…a), owner o (…b) of every room, a gated member g (…c), an outsider x (…d)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
select ('6a000000-0000-4000-8000-00000000000' || k)::uuid, 'authenticated', 'authenticated', 'prof-' || k || '@example.test',
       json_build_object('username', 'prof_' || k), now(), now()
from unnest(array['a', 'b', 'c', 'd']) k;

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('6a100000-0000-4000-8000-000000000001', 'prof-open', 'Open one', '6a000000-0000-4000-8000-00000000000b', 'public'),
  ('6a100000-0000-4000-8000-000000000002', 'prof-open-two', 'Open two', '6a000000-0000-4000-8000-00000000000b', 'public'),
  ('6a100000-0000-4000-8000-000000000003', 'prof-gated', 'Gated', '6a000000-0000-4000-8000-00000000000b', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('6a100000-0000-4000-8000-000000000003', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role, verified_at) values
  ('6a100000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 'moderator', null),
  ('6a100000-0000-4000-8000-000000000002', '6a000000-0000-4000-8000-00000000000a', 'member', null),
  ('6a100000-0000-4000-8000-000000000003', '6a000000-0000-4000-8000-00000000000a', 'member', now()),
  ('6a100000-0000-4000-8000-000000000003', '6a000000-0000-4000-8000-00000000000c', 'member', now());

-- Posts by p: shown (open one, two of them), hidden by reports, in the gated room. And o's post, later hidden.
insert into public.posts (id, room_id, author_id, title, media_kind, media_url, duration_seconds, created_at) values
  ('6a200000-0000-4000-8000-000000000001', '6a100000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 'Shown post', 'embed', 'https://vimeo.com/1', 300, now() - interval '10 hours'),
  ('6a200000-0000-4000-8000-000000000002', '6a100000-0000-4000-8000-000000000002', '6a000000-0000-4000-8000-00000000000a', 'Second shown post', 'embed', 'https://vimeo.com/2', 300, now() - interval '9 hours'),
  ('6a200000-0000-4000-8000-000000000003', '6a100000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 'Hidden post', 'embed', 'https://vimeo.com/3', 300, now() - interval '8 hours'),
  ('6a200000-0000-4000-8000-000000000004', '6a100000-0000-4000-8000-000000000003', '6a000000-0000-4000-8000-00000000000a', 'Gated post', 'embed', 'https://vimeo.com/4', 300, now() - interval '7 hours'),
  ('6a200000-0000-4000-8000-000000000005', '6a100000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000b', 'Owner post, hidden', 'embed', 'https://vimeo.com/5', 300, now() - interval '7 hours');

-- Comments by p (each at its own hour): shown, a reply to o's, held, hidden, deleted (it had replies),
-- under o's hidden post, in the gated room, a reply in the gated room.
insert into public.moments (id, post_id, author_id, at_seconds, body, created_at) values
  ('6a300000-0000-4000-8000-000000000001', '6a200000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000b', 5, 'owner says', now() - interval '7 hours'),
  ('6a300000-0000-4000-8000-000000000002', '6a200000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 102, 'shown comment', now() - interval '6 hours'),
  ('6a300000-0000-4000-8000-000000000004', '6a200000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 20, 'held comment', now() - interval '4 hours'),
  ('6a300000-0000-4000-8000-000000000005', '6a200000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 30, 'hidden comment', now() - interval '3 hours'),
  ('6a300000-0000-4000-8000-000000000006', '6a200000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 40, 'deleted comment', now() - interval '2 hours'),
  ('6a300000-0000-4000-8000-000000000007', '6a200000-0000-4000-8000-000000000005', '6a000000-0000-4000-8000-00000000000a', 50, 'under a hidden post', now() - interval '1 hour'),
  ('6a300000-0000-4000-8000-000000000008', '6a200000-0000-4000-8000-000000000004', '6a000000-0000-4000-8000-00000000000a', 60, 'gated secret words', now() - interval '30 minutes');
insert into public.moments (id, post_id, author_id, parent_id, at_seconds, body, created_at) values
  ('6a300000-0000-4000-8000-000000000003', '6a200000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', '6a300000-0000-4000-8000-000000000001', 5, 'shown reply', now() - interval '5 hours'),
  ('6a300000-0000-4000-8000-000000000009', '6a200000-0000-4000-8000-000000000004', '6a000000-0000-4000-8000-00000000000c', null, 61, 'gated other', now() - interval '25 minutes');
insert into public.moments (id, post_id, author_id, parent_id, at_seconds, body, created_at) values
  ('6a300000-0000-4000-8000-00000000000a', '6a200000-0000-4000-8000-000000000004', '6a000000-0000-4000-8000-00000000000a', '6a300000-0000-4000-8000-000000000009', 61, 'gated secret reply', now() - interval '20 minutes');
update public.moments set held_at = now() where id = '6a300000-0000-4000-8000-000000000004';
update public.moments set hidden_at = now() where id = '6a300000-0000-4000-8000-000000000005';
update public.moments set deleted_at = now(), body = '' where id = '6a300000-0000-4000-8000-000000000006';
update public.posts set hidden_at = now() where id in ('6a200000-0000-4000-8000-000000000003', '6a200000-0000-4000-8000-000000000005');

create temporary table viewers (who text primary key, role_name text, id uuid);
insert into viewers values
  ('anon', 'anon', null),
  ('an outsider', 'authenticated', '6a000000-0000-4000-8000-00000000000d'),
  ('a member of the gated room', 'authenticated', '6a000000-0000-4000-8000-00000000000c'),
  ('the owner and moderator of every room', 'authenticated', '6a000000-0000-4000-8000-00000000000b'),
  ('the person themselves', 'authenticated', '6a000000-0000-4000-8000-00000000000a');
grant select on viewers to anon, authenticated;

-- What a viewer is shown: the rooms, and the activity as 'kind:id-suffix', newest first.
create function pg_temp.shown_rooms(role_name text, person uuid) returns text
language plpgsql as $$
declare answer text;
begin
  perform pg_temp.act_as(role_name, person);
  select string_agg(r.slug || ':' || r.role, ' ' order by ord) into answer
  from (select p.*, row_number() over () as ord from public.profile_rooms('6a000000-0000-4000-8000-00000000000a') p) r;
  perform pg_temp.act_as_superuser();
  return answer;
end $$;

create function pg_temp.shown_activity(role_name text, person uuid) returns text
language plpgsql as $$
declare answer text;
begin
  perform pg_temp.act_as(role_name, person);
  select string_agg(a.kind || ':' || right(a.id::text, 1) || case when a.is_reply then '(reply)' else '' end, ' ' order by ord) into answer
  from (select p.*, row_number() over () as ord from public.profile_activity('6a000000-0000-4000-8000-00000000000a') p) a;
  perform pg_temp.act_as_superuser();
  return answer;
end $$;

-- Everything, read one item a page from the cursor.
create function pg_temp.paged_activity(role_name text, person uuid) returns text
language plpgsql as $$
declare
  answer text := '';
  at timestamptz := null;
  key uuid := null;
  item record;
  pages int := 0;
begin
  perform pg_temp.act_as(role_name, person);
  loop
    select * into item from public.profile_activity('6a000000-0000-4000-8000-00000000000a', at, key, 1);
    exit when not found or pages > 20;
    answer := answer || case when answer = '' then '' else ' ' end || item.kind || ':' || right(item.id::text, 1)
              || case when item.is_reply then '(reply)' else '' end;
    at := item.created_at;
    key := item.id;
    pages := pages + 1;
  end loop;
  perform pg_temp.act_as_superuser();
  return answer;
end $$;

-- ---------------------------------------------------------------------------------------------
-- The functions run as the caller, and the cursor reads have their indexes
-- ---------------------------------------------------------------------------------------------
select ok(not (select prosecdef from pg_proc where oid = 'public.profile_rooms(uuid, integer)'::regprocedure), 'profile_rooms runs as the caller: the tables'' policies apply');
select ok(not (select prosecdef from pg_proc where oid = 'public.profile_activity(uuid, timestamptz, uuid, integer)'::regprocedure), 'profile_activity runs as the caller');
select has_index('public', 'posts', 'posts_author_created_idx', array['author_id', 'created_at', 'id'], 'a person''s posts are indexed newest first');
select has_index('public', 'moments', 'moments_author_created_idx', array['author_id', 'created_at', 'id'], 'a person''s comments are indexed newest first');

-- ---------------------------------------------------------------------------------------------
-- Everyone is shown the same: public rooms only, and only what everyone may read in them
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.shown_rooms(v.role_name, v.id), 'prof-open:moderator prof-open-two:member',
          format('%s sees the person''s public rooms, their role there, and never the gated one', v.who))
from viewers v order by v.who;

select is(pg_temp.shown_activity(v.role_name, v.id), 'comment:3(reply) comment:2 post:2 post:1',
          format('%s sees the public post and comments, newest first — nothing hidden, held, deleted, under a hidden post or gated', v.who))
from viewers v order by v.who;

select is(pg_temp.paged_activity(v.role_name, v.id), 'comment:3(reply) comment:2 post:2 post:1',
          format('%s, one a page from the cursor, sees each item once, in order', v.who))
from viewers v order by v.who;

-- What a comment carries: its words, its time, its post and room.
select pg_temp.act_as('anon');
select results_eq(
  $$ select body, at_seconds, post_title, room_slug, room_name from public.profile_activity('6a000000-0000-4000-8000-00000000000a') where kind = 'comment' order by created_at $$,
  $$ values ('shown comment', 102::double precision, 'Shown post', 'prof-open', 'Open one'), ('shown reply', 5::double precision, 'Shown post', 'prof-open', 'Open one') $$,
  'a comment comes with its words, its time, its post''s title and its room');
select is((select count(*)::int from public.profile_activity('6a000000-0000-4000-8000-00000000000a') where body like '%secret%' or post_title like 'Gated%'), 0,
  'no word of the gated room reaches anyone');
select is((select count(*)::int from public.profile_activity('6a000000-0000-4000-8000-00000000000a', null, null, 2)), 2, 'a page holds page_size items');
select is((select count(*)::int from public.profile_activity('6a000000-0000-4000-8000-00000000000a', null, null, 0)), 1, 'a page holds at least one');
select is((select count(*)::int from public.profile_rooms('6a000000-0000-4000-8000-00000000000c')), 0, 'someone only in a gated room shows no rooms');
select is((select count(*)::int from public.profile_activity('6a000000-0000-4000-8000-00000000000c')), 0, 'and nothing they wrote there');
select pg_temp.act_as_superuser();

-- A room gated after the fact takes its past with it.
update public.rooms set visibility = 'gated' where id = '6a100000-0000-4000-8000-000000000002';
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('6a100000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
select is(pg_temp.shown_rooms('authenticated', '6a000000-0000-4000-8000-00000000000a'), 'prof-open:moderator',
  'a room that became gated leaves the list, even for the person');
select is(pg_temp.shown_activity('anon', null), 'comment:3(reply) comment:2 post:1', 'and what they posted there goes with it');

select * from finish();
rollback;
