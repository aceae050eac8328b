-- A gated member whose balance check lapses stops hearing the room's channels before the next thing
-- the room says (20261127000800_lapsed_members_leave_live.sql): the database moves the access epoch
-- on first, once per lapse, and tells the old topics where the channel went.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select pg_temp.verify_gated_members();
select plan(9);

-- The rooms have been there a while; member c's check lapsed a minute ago (75 minutes is the lifetime).
update public.rooms set lapses_counted_at = now() - interval '1 hour';
update public.memberships set verified_at = now() - interval '76 minutes' where user_id = '5e000000-0000-4000-8000-00000000000c';
create temp table epoch_before as select id, access_epoch from public.rooms;

insert into public.posts (room_id, author_id, title, media_kind, media_url) values
  ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000a', 'After the lapse', 'embed', 'https://vimeo.com/11');
select is((select access_epoch from public.rooms where id = '5e100000-0000-4000-8000-000000000002'),
  (select access_epoch + 1 from epoch_before where id = '5e100000-0000-4000-8000-000000000002'), 'the next thing a gated room says moves its epoch past the lapse first');
select is((select topic from realtime.messages where event = 'posts' and payload -> 'record' ->> 'title' = 'After the lapse'),
  private.room_topic('room', '5e100000-0000-4000-8000-000000000002', (select access_epoch from public.rooms where id = '5e100000-0000-4000-8000-000000000002')), '…and goes to the new topic only');
select is((select count(*)::int from realtime.messages where event = 'access' and topic = private.room_topic('room', '5e100000-0000-4000-8000-000000000002', (select access_epoch from epoch_before where id = '5e100000-0000-4000-8000-000000000002'))), 1,
  'the old topic is told once where the channel went');
select is((select count(*)::int from realtime.messages where event = 'posts' and payload -> 'record' ->> 'title' = 'After the lapse'), 1, 'one message for the post');

insert into public.posts (room_id, author_id, title, media_kind, media_url) values
  ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000a', 'And again', 'embed', 'https://vimeo.com/12');
select is((select access_epoch from public.rooms where id = '5e100000-0000-4000-8000-000000000002'),
  (select access_epoch + 1 from epoch_before where id = '5e100000-0000-4000-8000-000000000002'), 'a lapse moves the epoch once, not with every message');

-- Nobody lapses in a public room, and a moderator's membership never does.
insert into public.posts (room_id, author_id, title, media_kind, media_url) values
  ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000a', 'Open room', 'embed', 'https://vimeo.com/13');
select is((select access_epoch from public.rooms where id = '5e100000-0000-4000-8000-000000000001'),
  (select access_epoch from epoch_before where id = '5e100000-0000-4000-8000-000000000001'), 'a public room''s epoch stays');
update public.rooms set lapses_counted_at = now() - interval '1 hour' where id = '5e100000-0000-4000-8000-000000000002';
update public.memberships set verified_at = now() where user_id = '5e000000-0000-4000-8000-00000000000c';
update public.memberships set verified_at = now() - interval '76 minutes' where user_id = '5e000000-0000-4000-8000-00000000000b' and room_id = '5e100000-0000-4000-8000-000000000002';
create temp table epoch_now as select access_epoch from public.rooms where id = '5e100000-0000-4000-8000-000000000002';
insert into public.posts (room_id, author_id, title, media_kind, media_url) values
  ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000a', 'Moderated', 'embed', 'https://vimeo.com/14');
select is((select access_epoch from public.rooms where id = '5e100000-0000-4000-8000-000000000002'), (select access_epoch from epoch_now), 'a moderator''s old check moves nothing');

-- The lapsed member may not join the new topic; a fresh one may.
update public.memberships set verified_at = now() - interval '76 minutes' where user_id = '5e000000-0000-4000-8000-00000000000c';
select is(pg_temp.visible(private.current_room_topic('room', '5e100000-0000-4000-8000-000000000002'), 'authenticated', '5e000000-0000-4000-8000-00000000000c'), 0,
  'the lapsed member cannot read the current topic');
select is(pg_temp.visible(private.current_room_topic('room', '5e100000-0000-4000-8000-000000000002'), 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 2,
  'a member whose check is fresh may (the policies decide as before)');

select * from finish();
rollback;
