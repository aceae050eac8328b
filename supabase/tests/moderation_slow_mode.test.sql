-- Slow mode and the room's moderation settings (20261129000400_slow_mode_and_moderation_settings.sql):
-- who sets slow mode and the report threshold, the allowed values, the refusal of a comment sent too
-- soon (and who is exempt), my_room_standing for each role, and the log entries of role changes,
-- gate changes and members removed by others (not of leaving, a ban, or a deleted room).
-- Two comments sent at once are tested through the API (tests/integration/moderation-slow-mode.test.ts).
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(48);

create function pg_temp.logged(what text) returns int
language sql as $$ select count(*)::int from public.moderation_log where room_id = '5e100000-0000-4000-8000-000000000001' and action = what $$;
create function pg_temp.comment(person uuid, body text) returns void
language sql as $$ insert into public.moments (post_id, author_id, at_seconds, body) values ('5e200000-0000-4000-8000-000000000001', person, 1, body) $$;

-- Who sets slow mode
select pg_temp.act_as('anon');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 30) $$, '42501', null, 'anon cannot set slow mode (no execute)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 30) $$,
  '42501', 'Only the room''s owner and moderators can change slow mode', 'an outsider cannot set slow mode');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 30) $$,
  '42501', 'Only the room''s owner and moderators can change slow mode', 'a member cannot set slow mode');
select throws_ok($$ update public.rooms set slow_mode_seconds = 30 where id = '5e100000-0000-4000-8000-000000000001' $$,
  '42501', null, 'nobody sets it by updating the room');
select pg_temp.act_as('service_role');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 30) $$, '42501', null, 'the service role cannot set slow mode (no execute)');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 4) $$,
  '22023', 'Slow mode is off (0) or from 5 seconds to 1 hour', 'slow mode is at least 5 seconds');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 3601) $$,
  '22023', 'Slow mode is off (0) or from 5 seconds to 1 hour', '…and at most an hour');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', null) $$,
  '22023', null, '…and never nothing');
select is(public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 30), 30, 'a moderator turns slow mode on');
select is(public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 30), 30, 'setting the same value again changes nothing');
select pg_temp.act_as_superuser();
select is(pg_temp.logged('slow_mode_changed'), 1, '…the change is logged once');
select is((select reason from public.moderation_log where action = 'slow_mode_changed' and room_id = '5e100000-0000-4000-8000-000000000001'),
  'one comment every 30 seconds', '…saying what it is now');

-- A member's second comment within the gap is refused; moderators and the owner are exempt
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000c', 'first') $$, 'a member comments');
select throws_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000c', 'second') $$,
  'PT429', 'Slow mode is on in this room — you can comment again in 30 seconds', '…and the next comment within the gap is refused, saying how long to wait');
select ok((select slow_mode_applies and slow_mode_seconds = 30 and next_comment_at > now() from public.my_room_standing('5e100000-0000-4000-8000-000000000001')),
  'their standing says when the next comment may go');
-- A comment that waited on the lock behind one sent at the same moment began its transaction first:
-- its wait still reads at most the gap (the earlier comment stamped half a second after this "now").
select pg_temp.act_as_superuser();
update public.moments set created_at = now() + interval '0.5 seconds'
  where author_id = '5e000000-0000-4000-8000-00000000000c' and body = 'first';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000c', 'raced') $$,
  'PT429', 'Slow mode is on in this room — you can comment again in 30 seconds', '…and the wait never reads longer than the gap');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000d', 'mine') $$, 'another member''s comment is theirs to time');
-- timed out after that comment: the timeout is what they read, not the slow-mode wait
select pg_temp.act_as_superuser();
insert into public.timeouts (room_id, user_id, expires_at) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', now() + interval '1 hour');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_like($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000d', 'again') $$,
  'You''re timed out until %', 'a timed-out member within the gap reads that they are timed out');
select pg_temp.act_as_superuser();
delete from public.timeouts where user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000b', 'one') $$, 'a moderator comments');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000b', 'two') $$, '…and again at once: moderators are exempt');
select ok((select not slow_mode_applies and next_comment_at is null from public.my_room_standing('5e100000-0000-4000-8000-000000000001')), '…and their standing says so');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000a', 'one'); select pg_temp.comment('5e000000-0000-4000-8000-00000000000a', 'two') $$,
  'the owner is exempt too');
-- The gap passes
select pg_temp.act_as_superuser();
update public.moments set created_at = now() - interval '31 seconds' where author_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000c', 'later') $$, 'once the gap has passed, the member comments again');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is(public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 0), 0, 'a moderator turns slow mode off');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select pg_temp.comment('5e000000-0000-4000-8000-00000000000c', 'free again') $$, 'with slow mode off, comments go at once');
select ok((select not slow_mode_applies and next_comment_at is null and not banned and timed_out_until is null
           from public.my_room_standing('5e100000-0000-4000-8000-000000000001')), 'a member in good standing reads so');

-- my_room_standing for others
select pg_temp.act_as('anon');
select is((select row(banned, timed_out_until, slow_mode_seconds)::text from public.my_room_standing('5e100000-0000-4000-8000-000000000001')),
  '(f,,0)', 'anon reads the room''s slow mode and no standing');
select is((select count(*)::int from public.my_room_standing('5e100000-0000-4000-8000-0000000000ff')), 0, 'no room, no standing');

-- The report threshold: the owner only
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.set_report_threshold('5e100000-0000-4000-8000-000000000001', 5) $$,
  '42501', 'Only the room''s owner sets how many reports hide a post or comment', 'a moderator cannot set the report threshold');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.set_report_threshold('5e100000-0000-4000-8000-000000000001', 5) $$, '42501', null, 'a member cannot either');
select pg_temp.act_as('anon');
select throws_ok($$ select public.set_report_threshold('5e100000-0000-4000-8000-000000000001', 5) $$, '42501', null, 'anon cannot either');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.set_report_threshold('5e100000-0000-4000-8000-000000000001', 0) $$,
  '22023', 'The report threshold is from 1 to 100 people', 'the threshold is at least 1');
select throws_ok($$ select public.set_report_threshold('5e100000-0000-4000-8000-000000000001', 101) $$, '22023', null, '…and at most 100');
select is(public.set_report_threshold('5e100000-0000-4000-8000-000000000001', 5), 5, 'the owner sets the report threshold');
select pg_temp.act_as_superuser();
select is((select reason from public.moderation_log where action = 'report_threshold_changed' and room_id = '5e100000-0000-4000-8000-000000000001'), '3 → 5', '…logged with the old and new values');

-- With a second factor, settings change only at aal2
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
  values ('5e400000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000b', 'phone', 'totp', 'verified', now(), now(), 'x');
select pg_temp.act_at('5e000000-0000-4000-8000-00000000000b', 'aal1');
select throws_ok($$ select public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 10) $$,
  '42501', 'Enter the code from your authenticator app first, then change slow mode', 'a moderator with a second factor changes slow mode only at aal2');
select pg_temp.act_at('5e000000-0000-4000-8000-00000000000b', 'aal2');
select is(public.set_slow_mode('5e100000-0000-4000-8000-000000000001', 10), 10, '…and does at aal2');

-- Role changes, gate changes and removals are logged
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
update public.memberships set role = 'moderator' where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as_superuser();
select is((select reason from public.moderation_log where action = 'role_changed' and room_id = '5e100000-0000-4000-8000-000000000001'
             and target_user_id = '5e000000-0000-4000-8000-00000000000c' and actor_id = '5e000000-0000-4000-8000-00000000000a'),
  'member → moderator', 'a role change is logged with who, whom and what');
select pg_temp.act_at('5e000000-0000-4000-8000-00000000000b', 'aal2');
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000d';
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.moderation_log where action = 'member_removed' and target_user_id = '5e000000-0000-4000-8000-00000000000d'
             and actor_id = '5e000000-0000-4000-8000-00000000000b'), 1, 'a moderator removing a member is logged');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000c';
select pg_temp.act_as_superuser();
select is(pg_temp.logged('member_removed'), 1, 'leaving is not a removal');
-- (the fixture's room was made in this transaction, like a room created with its gate: make it older)
update public.rooms set created_at = now() - interval '1 day' where id = '5e100000-0000-4000-8000-000000000001';
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.set_room_gate('5e100000-0000-4000-8000-000000000001', '{"chain_id": 31337, "contract_address": "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707", "standard": "erc721"}') $$,
  'the owner gates the room');
select lives_ok($$ select public.set_room_gate('5e100000-0000-4000-8000-000000000001', '{"chain_id": 31337, "contract_address": "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707", "standard": "erc721"}') $$,
  '…sets the same gate again');
select lives_ok($$ select public.set_room_gate('5e100000-0000-4000-8000-000000000001', null) $$, '…and removes it');
select pg_temp.act_as_superuser();
select is((select array_agg(reason order by created_at, reason ~ 'removed') from public.moderation_log where action = 'gate_changed' and room_id = '5e100000-0000-4000-8000-000000000001'),
  array['chain 31337, erc721 0x5fc8d32690cc91d4c39d9d3abcbd16989f875707, at least 1', 'gate removed'], 'gate changes are logged (a gate set again unchanged is not)');
select is((select count(*)::int from public.moderation_log where action = 'gate_changed' and room_id = '5e100000-0000-4000-8000-000000000002'), 0,
  'a room created with its gate logs no change');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.create_room('ls-new-gated', 'New gated', '', '{"chain_id": 31337, "contract_address": "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707", "standard": "erc721"}') $$,
  'the owner creates a gated room');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.moderation_log l join public.rooms r on r.id = l.room_id where r.slug = 'ls-new-gated'), 0, '…which logs nothing');
delete from public.rooms where id = '5e100000-0000-4000-8000-000000000002';
select is((select count(*)::int from public.moderation_log where room_id = '5e100000-0000-4000-8000-000000000002'), 0, 'deleting a room logs no removals');

select * from finish();
rollback;
