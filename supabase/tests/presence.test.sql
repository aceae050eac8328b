-- Who is here comes from rows the database wrote for each person (20261127000700_presence_from_rows.sql):
-- only a member marks their own page; nobody writes the table; who_is_here shows fresh rows of
-- current members, with their own names, to those who may read the room.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select pg_temp.verify_gated_members();
select plan(26);

-- Writing: members only, their own page only.
select pg_temp.act_as('anon');
select throws_ok($$ select public.mark_here('5e100000-0000-4000-8000-000000000001', gen_random_uuid()) $$,
  '42501', 'permission denied for function mark_here', 'anon cannot mark itself here');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.mark_here('5e100000-0000-4000-8000-000000000001', gen_random_uuid()) $$,
  '42501', 'Only members of this room are shown here', 'someone who is not a member is not shown');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ insert into public.presence (room_id, user_id, tab_id) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000a', gen_random_uuid()) $$,
  '42501', 'permission denied for table presence', 'nobody writes presence rows directly (here as the owner)');
select ok(public.mark_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000c1', null, '5e200000-0000-4000-8000-000000000001') is not null, 'a member marks their page here');
select is((select count(*)::int from public.presence), 1, 'a member reads their own rows');
select is((select user_id from public.presence), '5e000000-0000-4000-8000-00000000000c'::uuid, '…written for the caller, whatever they are');
select throws_ok($$ update public.presence set user_id = '5e000000-0000-4000-8000-00000000000a' $$,
  '42501', 'permission denied for table presence', 'and cannot change them');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.presence), 0, 'another member reads nobody''s rows directly');

-- Reading: who_is_here, with each person's own records.
select is((select display_name from public.who_is_here('5e100000-0000-4000-8000-000000000001') where user_id = '5e000000-0000-4000-8000-00000000000c'),
  (select display_name from public.profiles where id = '5e000000-0000-4000-8000-00000000000c'), 'another member sees them under their own name');
select is((select playing_title from public.who_is_here('5e100000-0000-4000-8000-000000000001')), 'p1', '…playing the post''s own title');
select is((select role from public.who_is_here('5e100000-0000-4000-8000-000000000001')), 'member', '…in their own role');
select pg_temp.act_as('anon');
select is((select count(*)::int from public.who_is_here('5e100000-0000-4000-8000-000000000001')), 1, 'a visitor of a public room sees who is here');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.mark_here('5e100000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-0000000000c2') $$, 'a verified member marks a gated room');
select pg_temp.act_as('anon');
select is((select count(*)::int from public.who_is_here('5e100000-0000-4000-8000-000000000002')), 0, 'nobody outside a gated room sees who is in it');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select is((select count(*)::int from public.who_is_here('5e100000-0000-4000-8000-000000000002')), 0, '…nor a signed-in outsider');

-- What a page says it plays, and the session it is in, must be the room's.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select public.mark_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000c1', null, '5e200000-0000-4000-8000-000000000004');
select is((select playing_post_id from public.presence where tab_id = '7a000000-0000-4000-8000-0000000000c1'), null, 'a post of another room is not played here');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select pg_temp.keep('gated', public.start_listening_session('5e100000-0000-4000-8000-000000000002'));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select public.mark_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000c1', pg_temp.sid('gated'));
select is((select session_id from public.presence where tab_id = '7a000000-0000-4000-8000-0000000000c1'), null, 'nor is a session of another room joined');

-- Since when: kept while the page stays in the same session, new when it joins another.
select public.mark_here('5e100000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-0000000000c2', pg_temp.sid('gated'));
select pg_temp.act_as_superuser();
update public.presence set since = now() - interval '1 minute' where tab_id = '7a000000-0000-4000-8000-0000000000c2';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select ok(public.mark_here('5e100000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-0000000000c2', pg_temp.sid('gated')) < now() - interval '50 seconds', 'marking again in the same session keeps since');
select ok(public.mark_here('5e100000-0000-4000-8000-000000000002', '7a000000-0000-4000-8000-0000000000c2', null) >= now(), 'leaving the session starts it again');

-- Ten pages at most per person and room.
select public.mark_here('5e100000-0000-4000-8000-000000000001', gen_random_uuid()) from generate_series(1, 12);
select is((select count(*)::int from public.presence where room_id = '5e100000-0000-4000-8000-000000000001'), 10, 'a person keeps at most ten pages here');

-- Freshness and membership decide.
select pg_temp.act_as_superuser();
update public.presence set seen_at = now() - interval '76 seconds' where user_id = '5e000000-0000-4000-8000-00000000000c' and room_id = '5e100000-0000-4000-8000-000000000001';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.who_is_here('5e100000-0000-4000-8000-000000000001')), 0, 'a page not marked for 75 s is no longer here');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select public.mark_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000c1');
select pg_temp.act_as_superuser();
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.who_is_here('5e100000-0000-4000-8000-000000000001')), 0, 'a removed member is not shown, whatever their rows say');
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - interval '2 hours' where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((select count(*)::int from public.who_is_here('5e100000-0000-4000-8000-000000000002') where user_id = '5e000000-0000-4000-8000-00000000000c'), 0, 'nor is a gated member whose check has lapsed');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.mark_here('5e100000-0000-4000-8000-000000000002', gen_random_uuid()) $$,
  '42501', 'Only members of this room are shown here', '…who cannot mark themselves here either');

-- Leaving.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select public.mark_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000d1');
select public.leave_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000c1');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.presence where tab_id = '7a000000-0000-4000-8000-0000000000c1'), 1, 'leaving removes only one''s own page');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select public.leave_here('5e100000-0000-4000-8000-000000000001', '7a000000-0000-4000-8000-0000000000d1');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.presence where user_id = '5e000000-0000-4000-8000-00000000000d'), 0, 'a page that leaves is gone');

select * from finish();
rollback;
