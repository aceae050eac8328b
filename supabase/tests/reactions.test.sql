-- reactions: the five emoji, one per person, moment and emoji, the copied post and room columns,
-- and every role × operation in a public and a gated room (anon, a non-member, a member, another
-- member, a moderator, the owner, a member whose membership lapsed, service_role).
begin;
create extension if not exists pgtap with schema extensions;
select plan(44);

\ir helpers/roles.psql

-- owner o (…a), moderator of the gated room m (…b), author a (…c), other member b (…d),
-- non-member n (…e), lapsed member l (…f: was a member of both rooms, no longer)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000000a-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 're-owner@example.test', '{"username":"re_owner"}', now(), now()),
  ('0000000b-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 're-mod@example.test', '{"username":"re_mod"}', now(), now()),
  ('0000000c-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 're-author@example.test', '{"username":"re_author"}', now(), now()),
  ('0000000d-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 're-other@example.test', '{"username":"re_other"}', now(), now()),
  ('0000000e-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 're-outsider@example.test', '{"username":"re_outsider"}', now(), now()),
  ('0000000f-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 're-lapsed@example.test', '{"username":"re_lapsed"}', now(), now());

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('10000000-0000-4000-8000-000000000001', 'reactions-public', 'Public', '0000000a-0000-4000-8000-00000000000a', 'public'),
  ('20000000-0000-4000-8000-000000000002', 'reactions-gated', 'Gated', '0000000a-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('20000000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.memberships (room_id, user_id, role) values
  ('10000000-0000-4000-8000-000000000001', '0000000b-0000-4000-8000-00000000000b', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000b-0000-4000-8000-00000000000b', 'moderator'),
  ('10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'member'),
  ('10000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', 'member'),
  ('10000000-0000-4000-8000-000000000001', '0000000f-0000-4000-8000-00000000000f', 'member'),
  ('20000000-0000-4000-8000-000000000002', '0000000f-0000-4000-8000-00000000000f', 'member');
select pg_temp.verify_gated_members();

-- p1 public, p2 gated; m1 a public moment, m2 a gated one
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('30000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 'Public post', 'embed', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'),
  ('30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Gated post', 'embed', 'https://vimeo.com/76979871');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('40000000-0000-4000-8000-000000000001', '30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', 10, 'public'),
  ('40000000-0000-4000-8000-000000000002', '30000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 20, 'gated'),
  ('40000000-0000-4000-8000-000000000003', '30000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', null, 'gated, to be deleted');
insert into public.reactions (id, moment_id, user_id, emoji) values
  ('50000000-0000-4000-8000-000000000001', '40000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', '🔥'),
  ('50000000-0000-4000-8000-000000000002', '40000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', '❤️'),
  ('50000000-0000-4000-8000-000000000003', '40000000-0000-4000-8000-000000000002', '0000000f-0000-4000-8000-00000000000f', '😂'),
  ('50000000-0000-4000-8000-000000000004', '40000000-0000-4000-8000-000000000001', '0000000f-0000-4000-8000-00000000000f', '😮'),
  ('50000000-0000-4000-8000-000000000005', '40000000-0000-4000-8000-000000000003', '0000000c-0000-4000-8000-00000000000c', '👏');

-- l's membership lapses: their reactions stay
delete from public.memberships where user_id = '0000000f-0000-4000-8000-00000000000f';

-- ---------------------------------------------------------------------------------------------
-- Constraints and the copied columns (as the superuser)
-- ---------------------------------------------------------------------------------------------
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '💩') $$,
  '23514', 'new row for relation "reactions" violates check constraint "reactions_emoji_in_set"', 'an emoji outside the five is refused');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '❤') $$,
  '23514', 'new row for relation "reactions" violates check constraint "reactions_emoji_in_set"', 'a heart without its emoji presentation selector is not the set''s heart');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '') $$,
  '23514', 'new row for relation "reactions" violates check constraint "reactions_emoji_in_set"', 'an empty reaction is refused');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', '🔥') $$,
  '23505', 'duplicate key value violates unique constraint "reactions_one_per_emoji"', 'a second identical reaction is refused');
select lives_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', '👏') $$,
  'the same person reacts with another emoji');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('4fffffff-0000-4000-8000-000000000000', '0000000c-0000-4000-8000-00000000000c', '🔥') $$,
  '23503', 'That comment no longer exists', 'a reaction on a missing moment is refused');
insert into public.reactions (id, moment_id, post_id, room_id, user_id, emoji) values
  ('50000000-0000-4000-8000-0000000000f0', '40000000-0000-4000-8000-000000000002', '30000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', '0000000b-0000-4000-8000-00000000000b', '🔥');
select is((select array[post_id, room_id] from public.reactions where id = '50000000-0000-4000-8000-0000000000f0'),
  array['30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002']::uuid[],
  'a reaction''s post and room are always its moment''s, whatever the writer sent');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select isnt_empty($$ select 1 from public.reactions where id = '50000000-0000-4000-8000-000000000001' $$, 'anon reads a public room''s reactions');
select is_empty($$ select 1 from public.reactions where room_id = '20000000-0000-4000-8000-000000000002' $$, 'anon reads nothing of a gated room''s reactions');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '🔥') $$,
  '42501', 'permission denied for table reactions', 'anon cannot react');
select throws_ok($$ update public.reactions set emoji = '🔥' $$, '42501', 'permission denied for table reactions', 'anon cannot change reactions');
select throws_ok($$ delete from public.reactions $$, '42501', 'permission denied for table reactions', 'anon cannot remove reactions');

-- ---------------------------------------------------------------------------------------------
-- a signed-in non-member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000e-0000-4000-8000-00000000000e');
select isnt_empty($$ select 1 from public.reactions where id = '50000000-0000-4000-8000-000000000001' $$, 'a non-member reads a public room''s reactions');
select is_empty($$ select 1 from public.reactions where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a non-member reads nothing of a gated room''s reactions');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000e-0000-4000-8000-00000000000e', '🔥') $$,
  '42501', 'new row violates row-level security policy for table "reactions"', 'a non-member cannot react in a public room');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000e-0000-4000-8000-00000000000e', '🔥') $$,
  '42501', 'new row violates row-level security policy for table "reactions"', 'a non-member cannot react in a gated room');
select is_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000001' returning 1 $$, 'a non-member cannot remove someone''s reaction');

-- ---------------------------------------------------------------------------------------------
-- a member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.reactions where moment_id = '40000000-0000-4000-8000-000000000002'), 3, 'a member reads a gated moment''s reactions');
select lives_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', '🔥') $$,
  'a member reacts in a gated room');
select is((select array[post_id, room_id] from public.reactions where moment_id = '40000000-0000-4000-8000-000000000002' and user_id = '0000000c-0000-4000-8000-00000000000c'),
  array['30000000-0000-4000-8000-000000000002', '20000000-0000-4000-8000-000000000002']::uuid[], 'the reaction''s post and room are copied from its moment');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', '🔥') $$,
  '23505', 'duplicate key value violates unique constraint "reactions_one_per_emoji"', 'a member cannot react twice with the same emoji');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', '👍') $$,
  '23514', 'new row for relation "reactions" violates check constraint "reactions_emoji_in_set"', 'a member cannot react with an emoji outside the set');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000d-0000-4000-8000-00000000000d', '😮') $$,
  '42501', 'new row violates row-level security policy for table "reactions"', 'a member cannot react as someone else');
select throws_ok($$ insert into public.reactions (moment_id, post_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '30000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '😮') $$,
  '42501', 'permission denied for table reactions', 'a client cannot send a reaction''s post');
select throws_ok($$ insert into public.reactions (moment_id, room_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', '0000000c-0000-4000-8000-00000000000c', '😮') $$,
  '42501', 'permission denied for table reactions', 'a client cannot send a reaction''s room');
select throws_ok($$ update public.reactions set emoji = '😂' where user_id = '0000000c-0000-4000-8000-00000000000c' $$,
  '42501', 'permission denied for table reactions', 'a reaction is never changed, only removed and added');
select is_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000002' returning 1 $$, 'a member cannot remove another member''s reaction');
select isnt_empty($$ delete from public.reactions where moment_id = '40000000-0000-4000-8000-000000000002' and user_id = '0000000c-0000-4000-8000-00000000000c' returning 1 $$, 'a member removes their own reaction');

-- ---------------------------------------------------------------------------------------------
-- a moderator and the owner: they remove moments (and so their reactions), not people's reactions
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
select lives_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000b-0000-4000-8000-00000000000b', '👏') $$,
  'a moderator reacts');
select is_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000002' returning 1 $$, 'a moderator cannot remove someone''s reaction');
select pg_temp.act_as('authenticated', '0000000a-0000-4000-8000-00000000000a');
select lives_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000a-0000-4000-8000-00000000000a', '❤️') $$,
  'the owner reacts in their room');
select is_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000002' returning 1 $$, 'the owner cannot remove someone''s reaction');
select isnt_empty($$ delete from public.moments where id = '40000000-0000-4000-8000-000000000003' returning 1 $$, 'the owner deletes a moment…');
select pg_temp.act_as_superuser();
select is_empty($$ select 1 from public.reactions where id = '50000000-0000-4000-8000-000000000005' $$, '…and its reactions go with it');

-- ---------------------------------------------------------------------------------------------
-- a member whose membership lapsed
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000f-0000-4000-8000-00000000000f');
select is_empty($$ select 1 from public.reactions where room_id = '20000000-0000-4000-8000-000000000002' $$, 'a lapsed member no longer reads the gated room''s reactions');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000f-0000-4000-8000-00000000000f', '🔥') $$,
  '42501', 'new row violates row-level security policy for table "reactions"', 'a lapsed member cannot react in the gated room');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000001', '0000000f-0000-4000-8000-00000000000f', '🔥') $$,
  '42501', 'new row violates row-level security policy for table "reactions"', 'a lapsed member cannot react in the public room');
select is_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000003' returning 1 $$, 'a lapsed member cannot reach their reaction in the gated room');
select isnt_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000004' returning 1 $$, 'a lapsed member still removes their own reaction in the public room');

-- ---------------------------------------------------------------------------------------------
-- service_role
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('service_role');
select isnt_empty($$ select 1 from public.reactions where id = '50000000-0000-4000-8000-000000000003' $$, 'service_role reads a gated room''s reactions');
select lives_ok($$ insert into public.reactions (id, moment_id, room_id, user_id, emoji) values ('50000000-0000-4000-8000-0000000000e1', '40000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', '0000000e-0000-4000-8000-00000000000e', '😮') $$,
  'service_role writes a reaction');
select is((select room_id from public.reactions where id = '50000000-0000-4000-8000-0000000000e1'), '20000000-0000-4000-8000-000000000002'::uuid, 'even service_role cannot file a reaction under another room');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('40000000-0000-4000-8000-000000000002', '0000000e-0000-4000-8000-00000000000e', '😮') $$,
  '23505', 'duplicate key value violates unique constraint "reactions_one_per_emoji"', 'service_role is held to one reaction per emoji');
select isnt_empty($$ delete from public.reactions where id = '50000000-0000-4000-8000-000000000003' returning 1 $$, 'service_role removes a reaction');

select * from finish();
rollback;
