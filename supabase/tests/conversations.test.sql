-- Replies, mentions and notifications (20261130000100_replies.sql,
-- 20261130000200_mentions_and_notifications.sql): a reply's shape and its refusals; a deleted
-- comment with replies; who a mention names; which notification each cause writes, to whom, and
-- never to the actor; reactions grouped into one row; a lapsed member told without words; who reads
-- and changes notifications; the private user channel.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(64);

-- o owner (…a), m moderator (…b), h member (…c), p member (…d), n outsider (…e)
select pg_temp.verify_gated_members();

-- Fixture rows need their ids: written by the superuser, with auth.uid() the author's (triggers see them).
create function pg_temp.claims_of(person uuid) returns void
language plpgsql as $$
begin
  reset role;
  perform set_config('request.jwt.claims', json_build_object('sub', person, 'role', 'authenticated')::text, true);
end $$;

create function pg_temp.notes(person uuid, what text) returns int
language sql security definer as $$ select count(*)::int from public.notifications where user_id = person and kind = what $$;
create function pg_temp.latest(person uuid, what text) returns public.notifications
language sql security definer as $$ select * from public.notifications where user_id = person and kind = what order by created_at desc, id desc limit 1 $$;

-- ---------------------------------------------------------------------------------------------
-- Replies

select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000d');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 102, 'this drop!');

select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000c');
insert into public.moments (id, post_id, author_id, at_seconds, body, parent_id) values
  ('5e300000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000c', 7, 'agreed', '5e300000-0000-4000-8000-000000000001');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select results_eq($$ select post_id, at_seconds from public.moments where id = '5e300000-0000-4000-8000-000000000002' $$,
  $$ values ('5e200000-0000-4000-8000-000000000001'::uuid, 102::double precision) $$,
  'a reply takes its parent''s post and time, whatever it was sent with');
select throws_ok($$ insert into public.moments (post_id, author_id, body, parent_id) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 'deeper', '5e300000-0000-4000-8000-000000000002') $$,
  '22023', 'Reply to the comment that started the thread', 'a reply to a reply is refused (one level)');
select throws_ok($$ insert into public.moments (post_id, author_id, body, parent_id) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 'into the void', '5e3fffff-0000-4000-8000-000000000001') $$,
  '23503', 'That comment is no longer there', 'a reply to a missing comment is refused');
select throws_ok($$ update public.moments set parent_id = null where id = '5e300000-0000-4000-8000-000000000002' $$,
  '42501', null, 'nobody moves a reply out of its thread (no update grant on parent_id)');
update public.moments set at_seconds = 3 where id = '5e300000-0000-4000-8000-000000000002';
select is((select at_seconds from public.moments where id = '5e300000-0000-4000-8000-000000000002'), 102::double precision, 'a reply''s time stays its parent''s');

-- A member of the gated room cannot reply there to a comment a gated-room outsider can't read, and an
-- outsider cannot reply into the gated room at all.
select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000d');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-000000000010', '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000d', 20, 'members only words');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ insert into public.moments (post_id, author_id, body, parent_id) values ('5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000e', 'let me in', '5e300000-0000-4000-8000-000000000010') $$,
  '23503', 'That comment is no longer there', 'an outsider cannot reply to a comment they cannot read');

-- ---------------------------------------------------------------------------------------------
-- Notifications for a reply

select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'reply'), 1, 'the parent''s author is told of the reply');
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000d', 'reply')).actor_id, '5e000000-0000-4000-8000-00000000000c'::uuid, '…by whom');
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000d', 'reply')).moment_id, '5e300000-0000-4000-8000-000000000002'::uuid, '…naming the reply');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.moments (post_id, author_id, body, parent_id) values
  ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 'thanks', '5e300000-0000-4000-8000-000000000001');
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'reply'), 1, 'replying in one''s own thread tells nobody (never to yourself)');

-- ---------------------------------------------------------------------------------------------
-- Mentions

select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000c');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-000000000003', '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c', 30,
   'hey @ls_member and @LS_OUTSIDER, mail me at x@ls_owner.test or see https://x.test/@ls_mod, also @ls_host and @nobody_here');
select pg_temp.act_as_superuser();
select results_eq($$ select user_id, handle from public.mentions where moment_id = '5e300000-0000-4000-8000-000000000003' order by handle $$,
  $$ values ('5e000000-0000-4000-8000-00000000000c'::uuid, 'ls_host'), ('5e000000-0000-4000-8000-00000000000d'::uuid, 'ls_member') $$,
  'in a gated room only people who can read it are mentioned; emails, URLs and unknown names are not mentions');
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000e', 'mention'), 0, 'a mention of a non-member of a gated room notifies nobody');
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'mention'), 1, 'a mentioned member is told');
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000c', 'mention'), 0, 'mentioning yourself tells nobody');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
update public.moments set body = 'hey @ls_member and now @ls_mod' where id = '5e300000-0000-4000-8000-000000000003';
select pg_temp.act_as_superuser();
select results_eq($$ select handle from public.mentions where moment_id = '5e300000-0000-4000-8000-000000000003' order by handle $$,
  $$ values ('ls_member'), ('ls_mod') $$, 'an edit makes the mentions match the new words');
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000b', 'mention'), 1, 'the newly mentioned are told of the edit');
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'mention'), 1, '…and those mentioned before are not told again');

-- A rename keeps the mention (it is stored by id).
update public.profiles set username = 'ls_renamed' where id = '5e000000-0000-4000-8000-00000000000d';
select is((select user_id from public.mentions where moment_id = '5e300000-0000-4000-8000-000000000003' and handle = 'ls_member'),
  '5e000000-0000-4000-8000-00000000000d'::uuid, 'a rename keeps the mention pointing at the person');
update public.profiles set username = 'ls_member' where id = '5e000000-0000-4000-8000-00000000000d';

-- In a public room anyone with an account can read, so anyone can be mentioned; an outsider who shares
-- no room with the author is held back.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, at_seconds, body) values
  ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 5, 'what do you think @ls_outsider?');
select pg_temp.act_as_superuser();
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000e', 'mention'), 1, 'an outsider mentioned in a public room is notified');
select ok((pg_temp.latest('5e000000-0000-4000-8000-00000000000e', 'mention')).held, '…held back: they share no room with the author');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is(public.unread_notification_count(), 0, 'a held-back notification is not counted as unread');
select is((select count(*)::int from public.my_notifications(held_back => true)), 1, '…and is listed with the held-back ones');

-- Mentions are read with the comment they are in.
select is((select count(*)::int from public.mentions where moment_id = '5e300000-0000-4000-8000-000000000003'), 0,
  'an outsider reads no mentions of a gated room''s comment');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.mentions where moment_id = '5e300000-0000-4000-8000-000000000003'), 2,
  'a member reads them');
select throws_ok($$ insert into public.mentions (room_id, moment_id, user_id, handle) values ('5e100000-0000-4000-8000-000000000002', '5e300000-0000-4000-8000-000000000003', '5e000000-0000-4000-8000-00000000000e', 'ls_outsider') $$,
  '42501', null, 'nobody writes mentions but the database');

-- ---------------------------------------------------------------------------------------------
-- Reactions, grouped per comment

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', '🔥');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', '👏');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000b', '🔥');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', '😂');
select pg_temp.act_as_superuser();
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'reaction'), 1, 'three reactions from two people are one notification');
select is(((pg_temp.latest('5e000000-0000-4000-8000-00000000000d', 'reaction')).data ->> 'count')::int, 3, '…counting three reactions');
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000d', 'reaction')).actor_id, '5e000000-0000-4000-8000-00000000000b'::uuid, '…naming the latest reactor');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select people from public.my_notifications() where kind = 'reaction'), 2, 'the page counts two people (their own reaction not among them)');
select is(public.mark_notifications_read((select array_agg(id) from public.notifications where kind = 'reaction')), 1, 'the person marks it read');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', '❤️');
select pg_temp.act_as_superuser();
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'reaction'), 2, 'a reaction after it was read starts a new one');

-- ---------------------------------------------------------------------------------------------
-- Who reads and changes notifications

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.notifications where user_id <> '5e000000-0000-4000-8000-00000000000c'), 0, 'a person reads only their own notifications');
select is((select count(*)::int from public.my_notifications() where id in (select id from public.notifications where user_id = '5e000000-0000-4000-8000-00000000000d')), 0, '…through my_notifications too');
select is(pg_temp.touched($$ update public.notifications set read_at = now() where user_id = '5e000000-0000-4000-8000-00000000000d' $$), 0, '…and marks none of another''s read');
select is(public.mark_notifications_read(array(select id from public.notifications)), 0, 'mark_notifications_read touches only their own (they have none unread here but their own)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ update public.notifications set kind = 'mention' $$, '42501', null, 'nobody changes a notification but its read time');
select throws_ok($$ insert into public.notifications (user_id, kind) values ('5e000000-0000-4000-8000-00000000000d', 'reply') $$, '42501', null, 'nobody writes notifications but the database');
select pg_temp.act_as('anon');
select throws_ok($$ select count(*) from public.notifications $$, '42501', null, 'anon reads no notifications');
select throws_ok($$ select public.unread_notification_count() $$, '42501', null, 'anon has no count');

-- ---------------------------------------------------------------------------------------------
-- A lapsed member is told of a reply without its words

select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000c');
insert into public.moments (id, post_id, author_id, body, parent_id) values
  ('5e300000-0000-4000-8000-000000000011', '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c', 'secret reply words', '5e300000-0000-4000-8000-000000000010');
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - interval '1 day'
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000c');
insert into public.moments (id, post_id, author_id, body, parent_id) values
  ('5e300000-0000-4000-8000-000000000012', '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c', 'after you lapsed', '5e300000-0000-4000-8000-000000000010');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.notifications where user_id = '5e000000-0000-4000-8000-00000000000d' and moment_id = '5e300000-0000-4000-8000-000000000012'), 1,
  'a reply in a gated room to a lapsed member''s comment notifies them');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select results_eq($$ select excerpt, post_title, room_name from public.my_notifications() where moment_id = '5e300000-0000-4000-8000-000000000012' $$,
  $$ values (null::text, null::text, 'Gated'::text) $$, '…without its words or the post''s title, only the room''s name');
select results_eq($$ select excerpt, post_title from public.my_notifications() where moment_id = '5e300000-0000-4000-8000-000000000011' $$,
  $$ values (null::text, null::text) $$, 'and older notifications from the room lose their words too');

-- ---------------------------------------------------------------------------------------------
-- Deleting a comment that has replies

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is(pg_temp.touched($$ delete from public.moments where id = '5e300000-0000-4000-8000-000000000001' $$), 0, 'deleting a comment with replies removes no row…');
select results_eq($$ select body, deleted_at is not null from public.moments where id = '5e300000-0000-4000-8000-000000000001' $$,
  $$ values (''::text, true) $$, '…it stays, emptied, as "Comment deleted"');
select is((select count(*)::int from public.reactions where moment_id = '5e300000-0000-4000-8000-000000000001'), 0, '…without its reactions');
select is((select count(*)::int from public.moments where parent_id = '5e300000-0000-4000-8000-000000000001'), 2, '…and its replies remain');
select throws_ok($$ update public.moments set body = 'back again' where id = '5e300000-0000-4000-8000-000000000001' $$,
  '22023', 'That comment was deleted', 'a deleted comment is not edited back');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', '😮') $$,
  '23503', 'That comment was deleted', 'nobody reacts to a deleted comment');
select throws_ok($$ insert into public.moments (post_id, author_id, body, parent_id) values ('5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 'late', '5e300000-0000-4000-8000-000000000001') $$,
  '23503', 'That comment is no longer there', 'nobody starts a new reply under a deleted comment');
delete from public.moments where id = '5e300000-0000-4000-8000-000000000002';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
delete from public.moments where parent_id = '5e300000-0000-4000-8000-000000000001';
select is((select count(*)::int from public.moments where id = '5e300000-0000-4000-8000-000000000001'), 0, 'when the last reply goes, the emptied comment goes too');

-- ---------------------------------------------------------------------------------------------
-- Muting stops new ones (and only those it names)

select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000d');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-000000000030', '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d', 4, 'on p2'),
  ('5e300000-0000-4000-8000-000000000031', '5e200000-0000-4000-8000-000000000003', '5e000000-0000-4000-8000-00000000000d', null, 'on p3');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.notification_mutes (user_id, post_id) values ('5e000000-0000-4000-8000-00000000000d', '5e200000-0000-4000-8000-000000000002');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, body, parent_id) values
  ('5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000c', 'muted thread', '5e300000-0000-4000-8000-000000000030'),
  ('5e200000-0000-4000-8000-000000000003', '5e000000-0000-4000-8000-00000000000c', 'other thread', '5e300000-0000-4000-8000-000000000031');
select pg_temp.act_as_superuser();
select results_eq($$ select c.body from public.notifications n join public.moments c on c.id = n.moment_id
                    where n.user_id = '5e000000-0000-4000-8000-00000000000d' and n.kind = 'reply' and c.body in ('muted thread', 'other thread') $$,
  $$ values ('other thread'::text) $$, 'a muted thread tells its person nothing new; another thread still does');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.notification_mutes (user_id, room_id) values ('5e000000-0000-4000-8000-00000000000d', '5e100000-0000-4000-8000-000000000001');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, body, parent_id) values
  ('5e200000-0000-4000-8000-000000000003', '5e000000-0000-4000-8000-00000000000c', 'muted room', '5e300000-0000-4000-8000-000000000031');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-000000000031', '5e000000-0000-4000-8000-00000000000c', '🔥');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.notifications n
           where n.user_id = '5e000000-0000-4000-8000-00000000000d' and n.moment_id in (select id from public.moments where body = 'muted room')
              or (n.user_id = '5e000000-0000-4000-8000-00000000000d' and n.kind = 'reaction' and n.moment_id = '5e300000-0000-4000-8000-000000000031')), 0,
  'a muted room tells its person nothing new: no reply, no reaction');
delete from public.notification_mutes where user_id = '5e000000-0000-4000-8000-00000000000d';
insert into public.notification_settings (user_id, muted_kinds) values ('5e000000-0000-4000-8000-00000000000d', array['reply']);
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, body, parent_id) values
  ('5e200000-0000-4000-8000-000000000003', '5e000000-0000-4000-8000-00000000000c', 'kind off @ls_member', '5e300000-0000-4000-8000-000000000031');
select pg_temp.act_as_superuser();
select results_eq($$ select n.kind from public.notifications n join public.moments c on c.id = n.moment_id
                    where n.user_id = '5e000000-0000-4000-8000-00000000000d' and c.body = 'kind off @ls_member' $$,
  $$ values ('mention'::text) $$, 'replies switched off: the reply tells nothing, the mention in it still does');
delete from public.notification_settings where user_id = '5e000000-0000-4000-8000-00000000000d';

-- ---------------------------------------------------------------------------------------------
-- Sessions, roles, memberships, moderation

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001'));
select pg_temp.act_as_superuser();
select results_eq($$ select user_id from public.notifications where kind = 'session_started' order by user_id $$,
  $$ values ('5e000000-0000-4000-8000-00000000000a'::uuid), ('5e000000-0000-4000-8000-00000000000c'::uuid), ('5e000000-0000-4000-8000-00000000000d'::uuid) $$,
  'a session starting tells the room''s other members, not its host, not outsiders');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
update public.memberships set role = 'moderator' where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as_superuser();
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000c', 'role_changed')).data, '{"from": "member", "to": "moderator"}'::jsonb, 'a role change tells the person, from what to what');

-- A lapse the server finds (the join-room function, as the service role), a moderator's removal,
-- and leaving.
select pg_temp.act_as('service_role');
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.act_as_superuser();
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000d', 'membership_ended')).data ->> 'why', 'lapsed', 'a membership the server ends tells the person it lapsed');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as_superuser();
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000c', 'membership_ended')).data ->> 'why', 'removed', 'a membership a moderator ends says they were removed');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.act_as_superuser();
select is(pg_temp.notes('5e000000-0000-4000-8000-00000000000d', 'membership_ended'), 1, 'leaving tells nobody');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
insert into public.memberships (room_id, user_id) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000e');
select pg_temp.claims_of('5e000000-0000-4000-8000-00000000000e');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-000000000020', '5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000e', 9, 'spam spam');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
delete from public.moments where id = '5e300000-0000-4000-8000-000000000020';
select pg_temp.act_as_superuser();
select is((pg_temp.latest('5e000000-0000-4000-8000-00000000000e', 'moderation')).data ->> 'action', 'comment_removed', 'a moderator removing a comment tells its author');

-- ---------------------------------------------------------------------------------------------
-- The private channel user:<id>

select results_eq($$ select distinct (select array_agg(k order by k) from jsonb_object_keys(payload) k) from realtime.messages
                    where topic = 'user:5e000000-0000-4000-8000-00000000000c' and event = 'notification' $$,
  $$ values (array['id', 'kind']) $$, 'the database sent each of their notifications to their channel, with ids only (never words)');
delete from realtime.messages where topic like 'user:%';
select is(pg_temp.visible('user:5e000000-0000-4000-8000-00000000000c', 'authenticated', '5e000000-0000-4000-8000-00000000000c'), 2, 'a person joins their own channel');
select is(pg_temp.visible('user:5e000000-0000-4000-8000-00000000000c', 'authenticated', '5e000000-0000-4000-8000-00000000000d'), 0, 'nobody joins another''s');
select is(pg_temp.visible('user:5e000000-0000-4000-8000-00000000000c', 'anon'), 0, 'anon joins none');
select ok(not pg_temp.may_send('user:5e000000-0000-4000-8000-00000000000c', 'broadcast', 'authenticated', '5e000000-0000-4000-8000-00000000000c'), 'nobody sends on it, not even its person');

select * from finish();
rollback;
