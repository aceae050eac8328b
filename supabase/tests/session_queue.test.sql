-- A session's queue: the host's entries are queued, a member's are suggestions; the room comes from
-- the session whatever the writer sends; the post must be the room's and the session live; the
-- limits (200 entries, 10 pending suggestions a person); who reorders, accepts and removes; who reads.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(47);

-- Twelve more posts in the gated room (for the suggestion limit) and 200 in the public room.
insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds)
select '5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d', 'extra ' || i, 'embed', 'https://vimeo.com/g' || i, 60 from generate_series(1, 12) i;
insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds)
select '5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 'bulk ' || i, 'embed', 'https://vimeo.com/b' || i, 60 from generate_series(1, 200) i;
update public.rooms set session_starters = 'members' where id = '5e100000-0000-4000-8000-000000000002';

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000004'));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001'));

-- ---------------------------------------------------------------------------------------------
-- Adding
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000c') $$,
  'the host adds a post');
select is((select array[status, room_id::text, sort_key::text] from public.session_queue where post_id = '5e200000-0000-4000-8000-000000000005'),
  array['queued', '5e100000-0000-4000-8000-000000000002', '1'], '…queued, in the session''s room, at the end');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000c') $$,
  '23505', 'duplicate key value violates unique constraint "session_queue_one_per_post"', 'a post is in the queue once');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c') $$,
  '23503', 'That post isn''t in this room', 'another room''s post cannot be queued');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values ('5e3fffff-0000-4000-8000-000000000000', '5e200000-0000-4000-8000-000000000005', '5e000000-0000-4000-8000-00000000000c') $$,
  '23503', 'That session no longer exists', 'a session that does not exist has no queue');
select throws_ok($$ insert into public.session_queue (session_id, room_id, post_id, added_by) values (pg_temp.sid('gated'), '5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000006', '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', 'permission denied for table session_queue', 'a client cannot name the entry''s room');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by, status) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000006', '5e000000-0000-4000-8000-00000000000c', 'queued') $$,
  '42501', 'permission denied for table session_queue', 'nor its status');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000006', '5e000000-0000-4000-8000-00000000000d') $$,
  'a member adds a post');
select is((select array[status, sort_key::text] from public.session_queue where post_id = '5e200000-0000-4000-8000-000000000006'), array['suggested', '2'], '…as a suggestion');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c') $$,
  '42501', 'new row violates row-level security policy for table "session_queue"', 'a member cannot add as someone else');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000e') $$,
  '42501', 'new row violates row-level security policy for table "session_queue"', 'an outsider cannot suggest in a gated room');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000e') $$,
  '42501', 'new row violates row-level security policy for table "session_queue"', 'nor in a public room');
select pg_temp.act_as('anon');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', null) $$,
  '42501', 'permission denied for table session_queue', 'anon cannot add');

-- The service role's room is the session's too; it sets the status it likes.
select pg_temp.act_as('service_role');
select lives_ok($$ insert into public.session_queue (session_id, room_id, post_id, added_by, status) values (pg_temp.sid('public'), '5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000002', null, 'queued') $$,
  'the service role adds an entry');
select is((select array[room_id::text, status] from public.session_queue where post_id = '5e200000-0000-4000-8000-000000000002'),
  array['5e100000-0000-4000-8000-000000000001', 'queued'], '…in the session''s room whatever it named');

-- The suggestion limit: 10 pending suggestions a person.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.session_queue (session_id, post_id, added_by)
  select pg_temp.sid('gated'), id, '5e000000-0000-4000-8000-00000000000d' from public.posts where title in ('extra 1', 'extra 2', 'extra 3', 'extra 4', 'extra 5', 'extra 6', 'extra 7', 'extra 8', 'extra 9') $$,
  'a member has 10 suggestions pending');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) select pg_temp.sid('gated'), id, '5e000000-0000-4000-8000-00000000000d' from public.posts where title = 'extra 10' $$,
  '23514', 'You can suggest up to 10 posts at a time', 'an 11th suggestion is refused');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ insert into public.session_queue (session_id, post_id, added_by) select pg_temp.sid('gated'), id, '5e000000-0000-4000-8000-00000000000b' from public.posts where title = 'extra 10' $$,
  'another member still suggests');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ insert into public.session_queue (session_id, post_id, added_by) select pg_temp.sid('gated'), id, '5e000000-0000-4000-8000-00000000000c' from public.posts where title = 'extra 11' $$,
  'the host''s entries are not suggestions: no such limit');
select lives_ok($$ update public.session_queue set status = 'queued' where session_id = pg_temp.sid('gated') and post_id = '5e200000-0000-4000-8000-000000000006' $$,
  'the host accepts one of the member''s suggestions');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.session_queue (session_id, post_id, added_by) select pg_temp.sid('gated'), id, '5e000000-0000-4000-8000-00000000000d' from public.posts where title = 'extra 12' $$,
  'an accepted suggestion frees a place');

-- The queue limit: 200 entries.
select pg_temp.act_as_superuser();
insert into public.session_queue (session_id, post_id, added_by)
  select pg_temp.sid('public'), id, null from public.posts where title like 'bulk %' and title <> 'bulk 200';
select is((select count(*)::int from public.session_queue where session_id = pg_temp.sid('public')), 200, 'the public session''s queue is full (200)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) select pg_temp.sid('public'), id, '5e000000-0000-4000-8000-00000000000b' from public.posts where title = 'bulk 200' $$,
  '23514', 'The queue holds up to 200 posts', 'the host cannot add a 201st');

-- ---------------------------------------------------------------------------------------------
-- Reordering and accepting: the host only
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select isnt_empty($$ update public.session_queue set sort_key = 0.5 where session_id = pg_temp.sid('gated') and post_id = '5e200000-0000-4000-8000-000000000006' returning 1 $$,
  'the host moves an entry to the front');
select throws_ok($$ update public.session_queue set status = 'playing' where session_id = pg_temp.sid('gated') and post_id = '5e200000-0000-4000-8000-000000000006' $$,
  '23514', 'new row for relation "session_queue" violates check constraint "session_queue_status"', 'an entry is queued or suggested');
select throws_ok($$ update public.session_queue set post_id = '5e200000-0000-4000-8000-000000000004' where session_id = pg_temp.sid('gated') $$,
  '42501', 'permission denied for table session_queue', 'the host cannot swap an entry''s post');
select throws_ok($$ update public.session_queue set room_id = '5e100000-0000-4000-8000-000000000001' where session_id = pg_temp.sid('gated') $$,
  '42501', 'permission denied for table session_queue', 'nor its room');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is_empty($$ update public.session_queue set sort_key = -1 where session_id = pg_temp.sid('gated') returning 1 $$, 'a member reorders nothing');
select is_empty($$ update public.session_queue set status = 'queued' where session_id = pg_temp.sid('gated') and added_by = '5e000000-0000-4000-8000-00000000000d' returning 1 $$, 'nor accepts their own suggestions');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select is_empty($$ update public.session_queue set sort_key = -1 where session_id = pg_temp.sid('gated') returning 1 $$, 'the owner, not hosting, reorders nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is_empty($$ update public.session_queue set sort_key = -1 where session_id = pg_temp.sid('gated') returning 1 $$, 'a moderator not hosting this session reorders nothing');
select pg_temp.act_as('anon');
select throws_ok($$ update public.session_queue set sort_key = -1 $$, '42501', 'permission denied for table session_queue', 'anon reorders nothing');

-- ---------------------------------------------------------------------------------------------
-- Removing
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select isnt_empty($$ delete from public.session_queue q using public.posts p where q.post_id = p.id and p.title = 'extra 1' returning 1 $$, 'a member withdraws their suggestion');
select is_empty($$ delete from public.session_queue where post_id = '5e200000-0000-4000-8000-000000000006' returning 1 $$, 'but not their suggestion the host accepted');
select is_empty($$ delete from public.session_queue q using public.posts p where q.post_id = p.id and p.title = 'extra 10' returning 1 $$, 'nor someone else''s suggestion');
select is_empty($$ delete from public.session_queue where post_id = '5e200000-0000-4000-8000-000000000005' returning 1 $$, 'nor the host''s entry');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is_empty($$ delete from public.session_queue returning 1 $$, 'an outsider removes nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select isnt_empty($$ delete from public.session_queue q using public.posts p where q.post_id = p.id and p.title = 'extra 2' returning 1 $$, 'the host removes a member''s suggestion');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select isnt_empty($$ delete from public.session_queue where post_id = '5e200000-0000-4000-8000-000000000005' returning 1 $$, 'a moderator removes the host''s entry');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select isnt_empty($$ delete from public.session_queue q using public.posts p where q.post_id = p.id and p.title = 'extra 3' returning 1 $$, 'the owner removes any entry');

-- ---------------------------------------------------------------------------------------------
-- Reading
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select is((select count(*)::int from public.session_queue where session_id = pg_temp.sid('public')), 200, 'anon reads a public session''s queue');
select is_empty($$ select 1 from public.session_queue where session_id = pg_temp.sid('gated') $$, 'anon reads none of a gated session''s');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is_empty($$ select 1 from public.session_queue where session_id = pg_temp.sid('gated') $$, 'nor does an outsider');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select array_agg(p.title order by q.status, q.sort_key) from public.session_queue q join public.posts p on p.id = q.post_id where q.session_id = pg_temp.sid('gated') and q.status = 'queued'),
  array['p6', 'extra 11'], 'a member reads the gated queue in play order');

-- ---------------------------------------------------------------------------------------------
-- An ended session takes no more entries
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.end_listening_session(pg_temp.sid('gated')) $$, 'the host ends the session');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('gated'), '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c') $$,
  'PT409', 'This session has ended', 'an ended session''s queue takes nothing');
select pg_temp.act_as_superuser();
delete from public.listening_sessions where id = pg_temp.sid('gated');
select is_empty($$ select 1 from public.session_queue where session_id = pg_temp.sid('gated') $$, 'a deleted session takes its queue with it');

select * from finish();
rollback;
