-- Bans (20261129000200_bans.sql): who may ban and unban whom, what a ban ends (the membership, the
-- live channels' topics, presence rows), what it keeps out (a public room's membership insert, a
-- gated room's membership for the account and for any wallet it had linked or links while banned,
-- moved to another account or not), who reads bans, that expired bans no longer count, and the log.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(55);

-- o owner (…a), m moderator (…b), m2 moderator (…c), a member (…d), b member (…e), n outsider (…f),
-- x second account of a (…9)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('48000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'ban-owner@example.test', '{"username":"ban_owner"}', now(), now()),
  ('48000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'ban-mod@example.test', '{"username":"ban_mod"}', now(), now()),
  ('48000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'ban-mod2@example.test', '{"username":"ban_mod2"}', now(), now()),
  ('48000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'ban-a@example.test', '{"username":"ban_a"}', now(), now()),
  ('48000000-0000-4000-8000-00000000000e', 'authenticated', 'authenticated', 'ban-b@example.test', '{"username":"ban_b"}', now(), now()),
  ('48000000-0000-4000-8000-00000000000f', 'authenticated', 'authenticated', 'ban-out@example.test', '{"username":"ban_out"}', now(), now()),
  ('48000000-0000-4000-8000-000000000009', 'authenticated', 'authenticated', 'ban-alt@example.test', '{"username":"ban_alt"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('48100000-0000-4000-8000-000000000001', 'ban-public', 'Ban public', '48000000-0000-4000-8000-00000000000a', 'public'),
  ('48100000-0000-4000-8000-000000000002', 'ban-gated', 'Ban gated', '48000000-0000-4000-8000-00000000000a', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('48100000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.wallets (address, user_id) values
  ('0x480000000000000000000000000000000000000d', '48000000-0000-4000-8000-00000000000d'),
  ('0x48000000000000000000000000000000000000e0', '48000000-0000-4000-8000-00000000000e');
insert into public.memberships (room_id, user_id, role) values
  ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000b', 'moderator'),
  ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000c', 'moderator'),
  ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d', 'member'),
  ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000e', 'member');
insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000b', 'moderator', null, null),
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d', 'member', '0x480000000000000000000000000000000000000d', now());
insert into public.presence (room_id, user_id, tab_id)
  values ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d', gen_random_uuid());

create function pg_temp.is_member(room uuid, person uuid) returns boolean
language sql as $$ select exists (select 1 from public.memberships where room_id = room and user_id = person) $$;
create function pg_temp.epoch(room uuid) returns int
language sql as $$ select access_epoch from public.rooms where id = room $$;
create function pg_temp.logged(room uuid, what text, person uuid) returns int
language sql as $$ select count(*)::int from public.moderation_log where room_id = room and action = what and target_user_id is not distinct from person $$;

-- Who may not ban
select pg_temp.act_as('anon');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', null, 'anon cannot ban (no execute)');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000f');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', 'Only the room''s owner and moderators can ban people', 'an outsider cannot ban');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', 'Only the room''s owner and moderators can ban people', 'a member cannot ban');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000a') $$,
  '42501', 'Nobody can ban the room''s owner', 'a moderator cannot ban the owner');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000c') $$,
  '42501', 'Only the owner can ban a moderator', 'a moderator cannot ban another moderator');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000b') $$,
  '22023', 'You can''t ban yourself', 'nobody bans themselves');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d', repeat('x', 501)) $$,
  '22023', 'Keep the reason under 500 characters', 'a reason is at most 500 characters');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d', 'spam', now() - interval '1 minute') $$,
  '22023', null, 'a ban ends in the future');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-000000000000') $$,
  '22023', 'That person doesn''t have an account here', 'a ban names an account');
select pg_temp.act_as('service_role');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', null, 'the service role is no moderator: it cannot ban (no execute)');

-- With a second factor, banning needs aal2
select pg_temp.act_as_superuser();
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
  values ('48200000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000b', 'phone', 'totp', 'verified', now(), now(), 'x');
select pg_temp.act_at('48000000-0000-4000-8000-00000000000b', 'aal1');
select throws_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', 'Enter the code from your authenticator app first, then ban them', 'a moderator with a second factor bans only at aal2');

-- A moderator bans a member of the public room, for a day
select pg_temp.act_at('48000000-0000-4000-8000-00000000000b', 'aal2');
select is((public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d', '  spam links  ', now() + interval '1 day')).reason,
  'spam links', 'a moderator bans a member (the reason trimmed)');
select pg_temp.act_as_superuser();
select ok(not pg_temp.is_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d'), 'the membership ends at once');
select ok(pg_temp.is_member('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d'), '…in that room only');
select is(pg_temp.epoch('48100000-0000-4000-8000-000000000001'), 1, 'a public room''s epoch moves on (its session channel is for members)');
select is((select count(*)::int from public.presence where user_id = '48000000-0000-4000-8000-00000000000d'), 0, 'their presence rows in the room go');
select is(pg_temp.visible('session:48100000-0000-4000-8000-000000000001:1', 'authenticated', '48000000-0000-4000-8000-00000000000d'), 0,
  'the banned person cannot join the session channel');
select is(pg_temp.visible('room:48100000-0000-4000-8000-000000000001:1', 'authenticated', '48000000-0000-4000-8000-00000000000d'), 2,
  '…and still follows the public room''s own channel, as a visitor');
select is(pg_temp.visible('room:48100000-0000-4000-8000-000000000001', 'authenticated', '48000000-0000-4000-8000-00000000000d'), 0,
  'the old room topic admits nobody');
select is(pg_temp.logged('48100000-0000-4000-8000-000000000001', 'ban', '48000000-0000-4000-8000-00000000000d'), 1, 'the ban is logged');
select is((select actor_id from public.moderation_log where room_id = '48100000-0000-4000-8000-000000000001' and action = 'ban'),
  '48000000-0000-4000-8000-00000000000b'::uuid, '…with the moderator as who did it');
select is(pg_temp.logged('48100000-0000-4000-8000-000000000001', 'member_removed', '48000000-0000-4000-8000-00000000000d'), 0, '…and not also as a removal');

-- The banned person cannot rejoin; they still read the room
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000d');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', null, 'a banned person cannot rejoin a public room');
select is((select count(*)::int from public.rooms where id = '48100000-0000-4000-8000-000000000001'), 1, '…but still sees it');
select is((select reason from public.bans where room_id = '48100000-0000-4000-8000-000000000001'), 'spam links', 'the banned person reads their own ban');
select ok((select banned and banned_until > now() from public.my_room_standing('48100000-0000-4000-8000-000000000001')), '…and their standing says until when');
select throws_ok($$ select public.unban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', null, 'a banned person cannot lift their own ban');

-- Who reads bans
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000e');
select is((select count(*)::int from public.bans), 0, 'another member reads no bans');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000f');
select is((select count(*)::int from public.bans), 0, 'an outsider reads no bans');
select pg_temp.act_as('anon');
select throws_ok($$ select count(*) from public.bans $$, '42501', null, 'anon reads no bans');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from public.bans), 1, 'a moderator reads the room''s bans');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000a');
select is((select count(*)::int from public.bans), 1, 'the owner reads the room''s bans');
select throws_ok($$ insert into public.bans (room_id, user_id) values ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000e') $$,
  '42501', null, 'nobody writes bans directly, not even the owner');
select throws_ok($$ delete from public.bans $$, '42501', null, '…nor deletes them');

-- The owner bans from the gated room: the membership, the epoch, and the wallets
select lives_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d', 'ban evasion') $$,
  'the owner bans a gated room''s member, for good');
select pg_temp.act_as_superuser();
select ok(not pg_temp.is_member('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d'), 'the gated membership ends');
select is(pg_temp.epoch('48100000-0000-4000-8000-000000000002'), 1, '…and the gated room''s epoch moves on');
select is((select reason from public.moderation_log where action = 'ban' and room_id = '48100000-0000-4000-8000-000000000002'), 'ban evasion',
  'a ban for good is logged with its reason alone');
select throws_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d', 'member', '0x480000000000000000000000000000000000000d', now()) $$,
  '42501', 'You were banned from this room', 'the banned account is not let back in, whatever checks its tokens (the service role included)');
-- The wallet moves to a second account
delete from public.wallets where address = '0x480000000000000000000000000000000000000d';
insert into public.wallets (address, user_id) values ('0x480000000000000000000000000000000000000d', '48000000-0000-4000-8000-000000000009');
select throws_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-000000000009', 'member', '0x480000000000000000000000000000000000000d', now()) $$,
  '42501', 'This wallet was linked to an account banned from this room, so it can''t let anyone in', 'the banned account''s wallet, moved to another account, admits nobody');
select is((select barred_wallets from public.join_ban_check('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-000000000009')),
  array['0x480000000000000000000000000000000000000d'], 'join-room learns which of the second account''s wallets are barred');
select is((select banned from public.join_ban_check('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-000000000009')), false, '…while that account itself is not banned');
-- A wallet the banned account links while banned, then moves on
insert into public.wallets (address, user_id) values ('0x48000000000000000000000000000000000000d2', '48000000-0000-4000-8000-00000000000d');
delete from public.wallets where address = '0x48000000000000000000000000000000000000d2';
insert into public.wallets (address, user_id) values ('0x48000000000000000000000000000000000000d2', '48000000-0000-4000-8000-000000000009');
select throws_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-000000000009', 'member', '0x48000000000000000000000000000000000000d2', now()) $$,
  '42501', null, 'a wallet linked while banned admits nobody either');
select lives_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000e', 'member', '0x48000000000000000000000000000000000000e0', now()) $$,
  'someone else''s own wallet still admits them');
select is((select count(*)::int from public.join_ban_check('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d') where banned and banned_until is null), 1,
  'join-room learns the account is banned for good');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000d');
select throws_ok($$ select * from public.join_ban_check('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', null, 'join_ban_check is the server''s alone');

-- Unban: who may, and the log
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.unban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '42501', 'Only the room''s owner and moderators can lift a ban', 'a member cannot unban');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.unban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$, 'a moderator unbans');
select throws_ok($$ select public.unban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  '22023', 'That person isn''t banned from this room', 'unbanning someone not banned says so');
select pg_temp.act_as_superuser();
select is(pg_temp.logged('48100000-0000-4000-8000-000000000001', 'unban', '48000000-0000-4000-8000-00000000000d'), 1, 'the unban is logged');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.memberships (room_id, user_id) values ('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000d') $$,
  'once unbanned, they join again');

-- An expired ban no longer counts
select pg_temp.act_as_superuser();
update public.bans set created_at = now() - interval '2 days', expires_at = now() - interval '1 second'
  where room_id = '48100000-0000-4000-8000-000000000002';
select lives_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-000000000009', 'member', '0x480000000000000000000000000000000000000d', now()) $$,
  'an expired ban holds against no wallet');
select lives_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('48100000-0000-4000-8000-000000000002', '48000000-0000-4000-8000-00000000000d', 'member', '0x48000000000000000000000000000000000000d3', now()) $$,
  '…nor against the account');

-- The owner may ban a moderator
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000a');
select lives_ok($$ select public.ban_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000c', 'abuse of the role') $$,
  'the owner bans a moderator');
select pg_temp.act_as_superuser();
select ok(not pg_temp.is_member('48100000-0000-4000-8000-000000000001', '48000000-0000-4000-8000-00000000000c'), '…whose membership ends');

select * from finish();
rollback;
