-- The room's live channel as the database writes it: each change to posts, moments, reactions and
-- memberships leaves one realtime.messages row on `room:{room id}` (extension broadcast, private),
-- whoever wrote the change; broadcast_changes' payload is {id, schema, table, operation, record,
-- old_record}; a statement or transaction that does not commit leaves nothing.
begin;
create extension if not exists pgtap with schema extensions;
select plan(36);

\ir helpers/roles.psql

-- owner o (…a), moderator of the gated room m (…b), author a (…c), other member b (…d),
-- non-member n (…e), lapsed member l (…f: was a member of both rooms, no longer)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000000a-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'rb-owner@example.test', '{"username":"rb_owner"}', now(), now()),
  ('0000000b-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'rb-mod@example.test', '{"username":"rb_mod"}', now(), now()),
  ('0000000c-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'rb-author@example.test', '{"username":"rb_author"}', now(), now()),
  ('0000000d-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'rb-other@example.test', '{"username":"rb_other"}', now(), now()),
  ('0000000e-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'rb-outsider@example.test', '{"username":"rb_outsider"}', now(), now()),
  ('0000000f-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'rb-lapsed@example.test', '{"username":"rb_lapsed"}', now(), now());

insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('10000000-0000-4000-8000-000000000001', 'broadcasts-public', 'Public', '0000000a-0000-4000-8000-00000000000a', 'public'),
  ('20000000-0000-4000-8000-000000000002', 'broadcasts-gated', 'Gated', '0000000a-0000-4000-8000-00000000000a', 'gated');
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


-- The room messages written since the last call, oldest first (and forgets them).
create function pg_temp.taken() returns setof realtime.messages
language sql as $$
  with gone as (delete from realtime.messages where topic like 'room:%' and extension = 'broadcast' returning *)
  select * from gone;
$$;

-- The one room message written since the last call (fails the test if there is not exactly one).
create function pg_temp.one() returns realtime.messages
language plpgsql as $$
declare
  rows realtime.messages[];
begin
  perform pg_temp.act_as_superuser();
  select array_agg(t) into rows from pg_temp.taken() t;
  if coalesce(array_length(rows, 1), 0) <> 1 then
    raise exception 'expected one room message, found %: %', coalesce(array_length(rows, 1), 0), rows;
  end if;
  return rows[1];
end $$;

create temp table msg (topic text, event text, extension text, private boolean, id uuid, payload jsonb);
create function pg_temp.keep() returns void
language sql as $$
  insert into msg select m.topic, m.event, m.extension, m.private, m.id, m.payload from pg_temp.one() m;
$$;
grant all on msg to anon, authenticated, service_role;

delete from realtime.messages where topic like 'room:%';

-- ---------------------------------------------------------------------------------------------
-- posts (a member posts in the gated room)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values
  ('20000000-0000-4000-8000-000000000002', '0000000c-0000-4000-8000-00000000000c', 'Gated post', 'embed', 'https://vimeo.com/76979871', 300);
select pg_temp.keep();
select is((select array[topic, event, extension, private::text] from msg), array['room:20000000-0000-4000-8000-000000000002', 'posts', 'broadcast', 'true'],
  'a new post: a private broadcast on its room''s topic, event "posts"');
select is((select array(select jsonb_object_keys(payload) order by 1) from msg), array['id', 'old_record', 'operation', 'record', 'schema', 'table'],
  'the payload is {id, schema, table, operation, record, old_record}');
select is((select payload - 'record' - 'id' from msg), '{"operation":"INSERT","schema":"public","table":"posts","old_record":null}'::jsonb, 'INSERT: its operation and table, old_record null');
select is((select (payload->>'id')::uuid = id from msg), true, 'the payload''s id is the message''s');
select is((select payload->'record'->>'title' from msg), 'Gated post', 'record is the new row');

-- ---------------------------------------------------------------------------------------------
-- moments: insert, update, delete (by a member; the delete by a moderator)
-- ---------------------------------------------------------------------------------------------
truncate msg;
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, at_seconds, body) values ((select id from public.posts where title = 'Gated post'), '0000000c-0000-4000-8000-00000000000c', 102, 'at 1:42');
select pg_temp.keep();
select is((select array[topic, event, private::text] from msg), array['room:20000000-0000-4000-8000-000000000002', 'moments', 'true'], 'a new moment: on its room''s topic, event "moments"');
select is((select payload - 'record' - 'id' from msg), '{"operation":"INSERT","schema":"public","table":"moments","old_record":null}'::jsonb, 'a new moment: INSERT, old_record null');
select is((select (payload->'record') - 'id' - 'created_at' - 'updated_at' - 'post_id' from msg),
  '{"room_id":"20000000-0000-4000-8000-000000000002","author_id":"0000000c-0000-4000-8000-00000000000c","at_seconds":102.000,"body":"at 1:42","session_id":null,"hidden_at":null,"held_at":null,"parent_id":null,"deleted_at":null}'::jsonb,
  'a new moment: record carries the row as stored, the copied room included');

truncate msg;
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
update public.moments set body = 'at 1:43', at_seconds = 103 where body = 'at 1:42';
select pg_temp.keep();
select is((select array[event, payload->>'operation', payload->>'table'] from msg), array['moments', 'UPDATE', 'moments'], 'an edited moment: UPDATE');
select is((select payload->'record'->>'body' from msg), 'at 1:43', 'an edit: record is the new row');
select is((select (payload->'old_record') - 'id' from msg),
  ('{"room_id":"20000000-0000-4000-8000-000000000002","author_id":"0000000c-0000-4000-8000-00000000000c","post_id":"' || (select id from public.posts where title = 'Gated post') || '","session_id":null,"parent_id":null}')::jsonb,
  'an edit: old_record names the row and what it belongs to, never its old words');
select is((select payload->'record'->>'id' = payload->'old_record'->>'id' from msg), true, 'an edit: both records are the same moment');

truncate msg;
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
insert into public.reactions (moment_id, user_id, emoji) select id, '0000000b-0000-4000-8000-00000000000b', '🔥' from public.moments where body = 'at 1:43';
select pg_temp.keep();
select is((select array[topic, event, payload->>'operation', payload->>'table'] from msg), array['room:20000000-0000-4000-8000-000000000002', 'reactions', 'INSERT', 'reactions'],
  'a reaction: INSERT on its room''s topic, event "reactions"');
select is((select (payload->'record') - 'id' - 'moment_id' - 'created_at' - 'post_id' from msg),
  '{"room_id":"20000000-0000-4000-8000-000000000002","user_id":"0000000b-0000-4000-8000-00000000000b","emoji":"🔥"}'::jsonb,
  'a reaction: record carries its copied post and room');

truncate msg;
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
delete from public.reactions where user_id = '0000000b-0000-4000-8000-00000000000b';
select pg_temp.keep();
select is((select array[event, payload->>'operation'] from msg), array['reactions', 'DELETE'], 'a removed reaction: DELETE');
select is((select array[payload->'record' = 'null'::jsonb, payload->'old_record' ? 'moment_id', payload->'old_record' ? 'emoji'] from msg), array[true, true, false],
  'a removed reaction: record null, old_record its ids (the moment''s included)');

select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
insert into public.reactions (moment_id, user_id, emoji) select id, '0000000b-0000-4000-8000-00000000000b', '👏' from public.moments where body = 'at 1:43';
select pg_temp.keep();
truncate msg;
select pg_temp.act_as('authenticated', '0000000b-0000-4000-8000-00000000000b');
delete from public.moments where body = 'at 1:43';
select pg_temp.act_as_superuser();
create temp table deleted as select event, payload from pg_temp.taken();
select is((select array_agg(event order by event) from deleted), array['moments', 'reactions'], 'a moderator deletes a moment: a DELETE for it and for each of its reactions');
select is((select array[payload->>'operation', (payload->'record' = 'null'::jsonb)::text, payload->'old_record'->>'post_id', (payload->'old_record' ? 'body')::text] from deleted where event = 'moments'),
  array['DELETE', 'true', (select id::text from public.posts where title = 'Gated post'), 'false'], 'a deleted moment: record null, old_record its ids without its words');

-- ---------------------------------------------------------------------------------------------
-- a public room's changes go on its topic, private too (its channel's policy lets anyone in)
-- ---------------------------------------------------------------------------------------------
truncate msg;
select pg_temp.act_as('authenticated', '0000000d-0000-4000-8000-00000000000d');
insert into public.posts (room_id, author_id, title, media_kind, media_url) values
  ('10000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', 'Public post', 'embed', 'https://vimeo.com/2');
select pg_temp.keep();
select is((select array[topic, event, private::text] from msg), array['room:10000000-0000-4000-8000-000000000001', 'posts', 'true'], 'a public room''s post: on its own topic, private');
truncate msg;
select pg_temp.act_as('authenticated', '0000000d-0000-4000-8000-00000000000d');
update public.posts set title = 'Public post, edited' where title = 'Public post';
select pg_temp.keep();
select is((select array[payload->>'operation', payload->'old_record'->>'title', payload->'record'->>'title'] from msg), array['UPDATE', null, 'Public post, edited'], 'an edited post: UPDATE, the new row; not the old title');
truncate msg;
select pg_temp.act_as('authenticated', '0000000d-0000-4000-8000-00000000000d');
delete from public.posts where title = 'Public post, edited';
select pg_temp.keep();
select is((select array[payload->>'operation', (payload->'record' = 'null'::jsonb)::text, payload->'old_record'->>'title', (payload->'old_record'->>'id' is not null)::text] from msg),
  array['DELETE', 'true', null, 'true'], 'a deleted post: DELETE, record null, old_record its id without its title');

-- ---------------------------------------------------------------------------------------------
-- nothing deleted stays: an edit takes the old words off the channel's recent messages, a delete
-- all of them (Realtime replays recent messages to whoever may join)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
delete from realtime.messages where topic like 'room:%';
create function pg_temp.carrying(words text) returns int
language sql as $$ select count(*)::int from realtime.messages where topic like 'room:%' and payload::text like '%' || words || '%' $$;
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, body) values ((select id from public.posts where title = 'Gated post'), '0000000c-0000-4000-8000-00000000000c', 'first thoughts');
update public.moments set body = 'second thoughts' where body = 'first thoughts';
select pg_temp.act_as_superuser();
select is(array[pg_temp.carrying('first thoughts'), pg_temp.carrying('second thoughts')], array[0, 1], 'after an edit, no message carries the old words; the edit''s carries the new');
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, body) values ((select id from public.posts where title = 'Gated post'), '0000000c-0000-4000-8000-00000000000c', 'another comment');
delete from public.moments where body = 'second thoughts';
select pg_temp.act_as_superuser();
select is(array[pg_temp.carrying('thoughts'), pg_temp.carrying('another comment')], array[0, 1], 'after a delete, no message carries its words; others'' comments stay');
select is((select count(*)::int from realtime.messages where event = 'moments' and payload->>'operation' = 'DELETE'), 1, '… and the delete itself is still sent');
select pg_temp.act_as('authenticated', '0000000d-0000-4000-8000-00000000000d');
insert into public.posts (room_id, author_id, title, media_kind, media_url) values
  ('10000000-0000-4000-8000-000000000001', '0000000d-0000-4000-8000-00000000000d', 'A regrettable title', 'embed', 'https://vimeo.com/3');
delete from public.posts where title = 'A regrettable title';
select pg_temp.act_as_superuser();
select is(pg_temp.carrying('regrettable'), 0, 'a deleted post''s title leaves the channel too');
delete from realtime.messages where topic like 'room:%';

-- ---------------------------------------------------------------------------------------------
-- what does not commit sends nothing
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
savepoint before_change;
insert into public.moments (post_id, author_id, body) values ((select id from public.posts where title = 'Gated post'), '0000000c-0000-4000-8000-00000000000c', 'never committed');
rollback to savepoint before_change;
select is_empty($$ select 1 from realtime.messages where topic like 'room:%' $$, 'a rolled-back change leaves no message');
select pg_temp.act_as('authenticated', '0000000c-0000-4000-8000-00000000000c');
select throws_ok($$ insert into public.moments (post_id, author_id, at_seconds, body) values ((select id from public.posts where title = 'Gated post'), '0000000c-0000-4000-8000-00000000000c', 1, 'fine'), ((select id from public.posts where title = 'Gated post'), '0000000c-0000-4000-8000-00000000000c', 301, 'past the end') $$,
  '23514', 'That time is past the end of the media', 'a statement with one bad row fails whole…');
select pg_temp.act_as_superuser();
select is_empty($$ select 1 from realtime.messages where topic like 'room:%' $$, '…and leaves no message, not even for its good row');
create temp table gated_post as select id from public.posts where title = 'Gated post';
grant select on gated_post to authenticated;
select pg_temp.act_as('authenticated', '0000000e-0000-4000-8000-00000000000e');
select throws_ok($$ insert into public.moments (post_id, author_id, body) values ((select id from gated_post), '0000000e-0000-4000-8000-00000000000e', 'let me in') $$,
  '42501', 'new row violates row-level security policy for table "moments"', 'a non-member''s comment is refused…');
select pg_temp.act_as_superuser();
select is_empty($$ select 1 from realtime.messages where topic like 'room:%' $$, '…and reaches nobody');

-- ---------------------------------------------------------------------------------------------
-- memberships: who and what changed, event "memberships"
-- ---------------------------------------------------------------------------------------------
truncate msg;
insert into public.memberships (room_id, user_id) values ('20000000-0000-4000-8000-000000000002', '0000000e-0000-4000-8000-00000000000e');
select pg_temp.keep();
select is((select array[topic, event, private::text] from msg), array['room:20000000-0000-4000-8000-000000000002', 'memberships', 'true'], 'a new membership: on the room''s topic, event "memberships"');
select is((select payload - 'id' from msg), '{"operation":"INSERT","room_id":"20000000-0000-4000-8000-000000000002","user_id":"0000000e-0000-4000-8000-00000000000e","role":"member"}'::jsonb,
  'a new membership: {operation, room_id, user_id, role} (and the message id)');
truncate msg;
select pg_temp.act_as('authenticated', '0000000a-0000-4000-8000-00000000000a');
update public.memberships set role = 'moderator' where room_id = '20000000-0000-4000-8000-000000000002' and user_id = '0000000e-0000-4000-8000-00000000000e';
select pg_temp.keep();
select is((select payload - 'id' from msg), '{"operation":"UPDATE","room_id":"20000000-0000-4000-8000-000000000002","user_id":"0000000e-0000-4000-8000-00000000000e","role":"moderator"}'::jsonb,
  'the owner changes a role: UPDATE with the new role');
truncate msg;
update public.memberships set verified_at = now() where room_id = '20000000-0000-4000-8000-000000000002' and user_id = '0000000e-0000-4000-8000-00000000000e';
select is_empty($$ select 1 from realtime.messages where topic like 'room:%' $$, 'a recheck that changes no role sends nothing');
select pg_temp.act_as('authenticated', '0000000a-0000-4000-8000-00000000000a');
delete from public.memberships where room_id = '20000000-0000-4000-8000-000000000002' and user_id = '0000000e-0000-4000-8000-00000000000e';
select pg_temp.act_as_superuser();
select is((select count(*)::int from realtime.messages where topic = 'room:20000000-0000-4000-8000-000000000002' and event = 'access'), 1,
  'the room being gated, its channel moves on (event access: live_access.test.sql)');
delete from realtime.messages where event = 'access';
select pg_temp.keep();
select is((select payload - 'id' from msg), '{"operation":"DELETE","room_id":"20000000-0000-4000-8000-000000000002","user_id":"0000000e-0000-4000-8000-00000000000e","role":null}'::jsonb,
  'a membership ends: DELETE, role null');

select * from finish();
rollback;
