-- The moderation log (20261129000100_moderation_log.sql): read by the room's owner and moderators
-- only; written only by the database (private.log_moderation); never updated, deleted or truncated by
-- anyone, service role and the table's owner included; it goes with its room, and a deleted account
-- leaves its entries without its id.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(20);

-- owner o (…a), moderator m (…b), member a (…c), outsider n (…d)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('47000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'log-owner@example.test', '{"username":"log_owner"}', now(), now()),
  ('47000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'log-mod@example.test', '{"username":"log_mod"}', now(), now()),
  ('47000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'log-a@example.test', '{"username":"log_a"}', now(), now()),
  ('47000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'log-out@example.test', '{"username":"log_out"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('47100000-0000-4000-8000-000000000001', 'log-room', 'Log room', '47000000-0000-4000-8000-00000000000a', 'public'),
  ('47100000-0000-4000-8000-000000000002', 'log-other', 'Other room', '47000000-0000-4000-8000-00000000000a', 'public');
insert into public.memberships (room_id, user_id, role) values
  ('47100000-0000-4000-8000-000000000001', '47000000-0000-4000-8000-00000000000b', 'moderator'),
  ('47100000-0000-4000-8000-000000000001', '47000000-0000-4000-8000-00000000000c', 'member');

select private.log_moderation('47100000-0000-4000-8000-000000000001', 'timeout', '47000000-0000-4000-8000-00000000000c', null, null, 'flooding', '47000000-0000-4000-8000-00000000000b');
select private.log_moderation('47100000-0000-4000-8000-000000000002', 'ban', '47000000-0000-4000-8000-00000000000c', null, null, 'spam', '47000000-0000-4000-8000-00000000000a');

-- Who reads
select pg_temp.act_as('anon');
select throws_ok($$select count(*) from public.moderation_log$$, '42501', null, 'anon reads no moderation log');
select pg_temp.act_as('authenticated', '47000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.moderation_log), 0, 'an outsider reads no moderation log');
select pg_temp.act_as('authenticated', '47000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.moderation_log), 0, 'a member reads no moderation log, not even entries about themselves');
select pg_temp.act_as('authenticated', '47000000-0000-4000-8000-00000000000b');
select is((select array_agg(action)::text from public.moderation_log), '{timeout}', 'a moderator reads their room''s log and no other room''s');
select pg_temp.act_as('authenticated', '47000000-0000-4000-8000-00000000000a');
select is((select count(*)::int from public.moderation_log), 2, 'the owner reads the log of each of their rooms');

-- Nobody writes it directly
select throws_ok($$insert into public.moderation_log (room_id, action) values ('47100000-0000-4000-8000-000000000001', 'ban')$$, '42501', null, 'the owner cannot insert a log entry');
select pg_temp.act_as('authenticated', '47000000-0000-4000-8000-00000000000b');
select throws_ok($$insert into public.moderation_log (room_id, action) values ('47100000-0000-4000-8000-000000000001', 'ban')$$, '42501', null, 'a moderator cannot insert a log entry');
select throws_ok($$update public.moderation_log set reason = 'nothing happened'$$, '42501', null, 'a moderator cannot edit the log');
select throws_ok($$delete from public.moderation_log$$, '42501', null, 'a moderator cannot delete from the log');
select throws_ok($$select private.log_moderation('47100000-0000-4000-8000-000000000001', 'ban')$$, '42501', null, 'a moderator cannot call the log''s writer');
select pg_temp.act_as('anon');
select throws_ok($$insert into public.moderation_log (room_id, action) values ('47100000-0000-4000-8000-000000000001', 'ban')$$, '42501', null, 'anon cannot insert a log entry');

-- Not even the service role or the table's owner changes it
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.moderation_log where room_id in ('47100000-0000-4000-8000-000000000001', '47100000-0000-4000-8000-000000000002')), 2, 'the service role reads the log');
select throws_ok($$insert into public.moderation_log (room_id, action) values ('47100000-0000-4000-8000-000000000001', 'ban')$$, '42501', null, 'the service role cannot insert a log entry');
select throws_ok($$update public.moderation_log set reason = 'x'$$, '42501', null, 'the service role cannot edit the log');
select pg_temp.act_as_superuser();
select throws_ok($$update public.moderation_log set reason = 'x' where room_id = '47100000-0000-4000-8000-000000000001'$$, '42501', 'The moderation log cannot be changed', 'the table''s owner cannot edit the log');
select throws_ok($$delete from public.moderation_log where room_id = '47100000-0000-4000-8000-000000000001'$$, '42501', 'The moderation log cannot be changed', 'the table''s owner cannot delete from the log');
select throws_ok($$truncate public.moderation_log$$, '42501', 'The moderation log cannot be changed', 'nobody truncates the log');

-- The database's own entry when reports hide an item, in plain words for one reporter
update public.rooms set report_threshold = 1 where id = '47100000-0000-4000-8000-000000000001';
update public.memberships set joined_at = now() - interval '2 days' where room_id = '47100000-0000-4000-8000-000000000001';
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('47200000-0000-4000-8000-000000000001', '47100000-0000-4000-8000-000000000001', '47000000-0000-4000-8000-00000000000a', 'Log post', 'embed', 'https://vimeo.com/1');
select pg_temp.act_as('authenticated', '47000000-0000-4000-8000-00000000000c');
select public.report_content('spam', '47200000-0000-4000-8000-000000000001');
select pg_temp.act_as_superuser();
select is((select reason from public.moderation_log where action = 'post_hidden' and post_id = '47200000-0000-4000-8000-000000000001'),
  'Reported by 1 member', 'one report that hides an item is logged as "Reported by 1 member"');

-- A deleted account leaves its entries; a deleted room takes its log with it
delete from auth.users where id = '47000000-0000-4000-8000-00000000000c';
select is((select count(*)::int from public.moderation_log where room_id = '47100000-0000-4000-8000-000000000001' and target_user_id is null and reason = 'flooding'), 1,
  'a deleted account''s entries stay, without its id');
delete from public.rooms where id = '47100000-0000-4000-8000-000000000002';
select is((select count(*)::int from public.moderation_log where room_id = '47100000-0000-4000-8000-000000000002'), 0, 'a deleted room''s log goes with it');

select * from finish();
rollback;
