-- memberships: joining and leaving public rooms, gated rooms' members added only by the server,
-- roles (only the owner changes them), removals, the owner's own row, the policy helpers, and
-- every role × operation.
begin;
create extension if not exists pgtap with schema extensions;
select plan(74);

\ir helpers/roles.psql

-- Runs a statement and then the checks deferred to commit, as COMMIT would.
create function pg_temp.at_commit(statement text) returns void
language plpgsql as $$
begin
  execute statement;
  set constraints all immediate;
  set constraints all deferred;
end $$;

-- owner, moderator, member, outsider
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values
  ('a1111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'room-owner@example.test', '{"username":"room_owner"}', now(), now()),
  ('a2222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'room-mod@example.test', '{"username":"room_mod"}', now(), now()),
  ('a3333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', 'room-member@example.test', '{"username":"room_member"}', now(), now()),
  ('a4444444-4444-4444-8444-444444444444', 'authenticated', 'authenticated', 'room-outsider@example.test', '{"username":"room_outsider"}', now(), now());

insert into public.rooms (id, slug, name, description, owner_id)
values ('b1111111-1111-4111-8111-111111111111', 'open-room', 'Open room', 'Anyone may join', 'a1111111-1111-4111-8111-111111111111');
insert into public.rooms (id, slug, name, owner_id, visibility)
values ('b2222222-2222-4222-8222-222222222222', 'gated-room', 'Gated room', 'a1111111-1111-4111-8111-111111111111', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard)
values ('b2222222-2222-4222-8222-222222222222', 31337, '0xabababababababababababababababababababab', 'erc721');
insert into public.memberships (room_id, user_id, role)
values ('b1111111-1111-4111-8111-111111111111', 'a2222222-2222-4222-8222-222222222222', 'moderator'),
       ('b1111111-1111-4111-8111-111111111111', 'a3333333-3333-4333-8333-333333333333', 'member'),
       ('b2222222-2222-4222-8222-222222222222', 'a2222222-2222-4222-8222-222222222222', 'moderator'),
       ('b2222222-2222-4222-8222-222222222222', 'a3333333-3333-4333-8333-333333333333', 'member');
select pg_temp.verify_gated_members();

-- a second moderator in each room
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values ('a5555555-5555-4555-8555-555555555555', 'authenticated', 'authenticated', 'room-mod2@example.test', '{"username":"room_mod_two"}', now(), now());
insert into public.memberships (room_id, user_id, role)
values ('b1111111-1111-4111-8111-111111111111', 'a5555555-5555-4555-8555-555555555555', 'moderator'),
       ('b2222222-2222-4222-8222-222222222222', 'a5555555-5555-4555-8555-555555555555', 'moderator');
select lives_ok($$ set constraints all immediate $$, 'the fixture rooms are consistent at commit');
set constraints all deferred;

-- ---------------------------------------------------------------------------------------------
-- Rules
-- ---------------------------------------------------------------------------------------------
select throws_like($$ insert into public.memberships (room_id, user_id, role) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444', 'admin') $$,
  '%memberships_role%', 'the role is owner, moderator or member');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a3333333-3333-4333-8333-333333333333') $$,
  '23505', null, 'a user is a member of a room once');
select throws_ok($$ insert into public.memberships (room_id, user_id, role) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444', 'owner') $$,
  '23505', null, 'a room has one owner');
select throws_like($$ insert into public.memberships (room_id, user_id, verified_wallet) values ('b2222222-2222-4222-8222-222222222222', 'a4444444-4444-4444-8444-444444444444', '0xABC') $$,
  '%memberships_verified_wallet_format%', 'a verified wallet is a lowercase address');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('99999999-9999-4999-8999-999999999999', 'a4444444-4444-4444-8444-444444444444') $$,
  '23503', null, 'a membership needs an existing room');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select results_eq($$ select user_id, role from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' order by user_id $$,
  $$ values ('a1111111-1111-4111-8111-111111111111'::uuid, 'owner'::text), ('a2222222-2222-4222-8222-222222222222', 'moderator'), ('a3333333-3333-4333-8333-333333333333', 'member'),
            ('a5555555-5555-4555-8555-555555555555', 'moderator') $$,
  'anon reads who belongs to a public room, with their roles');
select is_empty($$ select 1 from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' $$, 'anon reads no member of a gated room');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444') $$,
  '42501', null, 'anon cannot join a room');
select throws_ok($$ update public.memberships set role = 'member' $$, '42501', null, 'anon cannot change a role');
select throws_ok($$ delete from public.memberships $$, '42501', null, 'anon cannot remove a member');

-- ---------------------------------------------------------------------------------------------
-- a non-member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a4444444-4444-4444-8444-444444444444');
select is((select count(*)::int from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111'), 4, 'a non-member reads a public room''s members');
select is_empty($$ select 1 from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' $$, 'a non-member reads no member of a gated room');
select is((select private.room_role('b1111111-1111-4111-8111-111111111111')), null, 'room_role: a non-member has no role');
select is((select private.can_read_room_content('b2222222-2222-4222-8222-222222222222')), false, 'can_read_room_content: not a gated room''s content');
select is((select private.can_read_room_content('b1111111-1111-4111-8111-111111111111')), true, 'can_read_room_content: a public room''s content');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b2222222-2222-4222-8222-222222222222', 'a4444444-4444-4444-8444-444444444444') $$,
  '42501', 'new row violates row-level security policy for table "memberships"', 'a user cannot insert their own membership of a gated room');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a5555555-5555-4555-8555-555555555555') $$,
  '42501', 'new row violates row-level security policy for table "memberships"', 'a user cannot add someone else to a room');
select throws_ok($$ insert into public.memberships (room_id, user_id, role) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444', 'moderator') $$,
  '42501', null, 'a user cannot join with a role');
select throws_ok($$ insert into public.memberships (room_id, user_id, verified_wallet, verified_at) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444', '0x1111111111111111111111111111111111111111', now()) $$,
  '42501', null, 'a user cannot claim a verified wallet');
select is_empty($$ update public.memberships set role = 'moderator' where room_id = 'b1111111-1111-4111-8111-111111111111' returning user_id $$,
  'a non-member''s role change matches no row');
select is_empty($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' returning user_id $$,
  'a non-member''s removal matches no row');
select results_eq($$ insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444') returning role $$,
  $$ values ('member'::text) $$, 'a user joins a public room, as a member');
select is((select private.room_role('b1111111-1111-4111-8111-111111111111')), 'member', 'room_role: now a member');
select results_eq($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a4444444-4444-4444-8444-444444444444' returning user_id $$,
  $$ values ('a4444444-4444-4444-8444-444444444444'::uuid) $$, 'and leaves it');

-- ---------------------------------------------------------------------------------------------
-- a member (of both rooms; the gated one's row came from the server)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a3333333-3333-4333-8333-333333333333');
select is((select count(*)::int from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222'), 4, 'a member reads a gated room''s members');
select is((select private.can_read_room_content('b2222222-2222-4222-8222-222222222222')), true, 'can_read_room_content: a member reads the gated room''s content');
select is((select private.room_role('b2222222-2222-4222-8222-222222222222')), 'member', 'room_role: member');
select set_eq($$ select * from private.my_room_ids() $$,
  $$ values ('b1111111-1111-4111-8111-111111111111'::uuid), ('b2222222-2222-4222-8222-222222222222') $$, 'my_room_ids: exactly the member''s own rooms');
select is_empty($$ update public.memberships set role = 'owner' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning role $$,
  'a member cannot make themself owner');
select is_empty($$ update public.memberships set role = 'moderator' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning role $$,
  'a member cannot make themself moderator');
select throws_ok($$ update public.memberships set user_id = 'a4444444-4444-4444-8444-444444444444' where user_id = 'a3333333-3333-4333-8333-333333333333' $$,
  '42501', null, 'a member cannot hand their membership to someone else');
select throws_ok($$ update public.memberships set verified_at = now() where user_id = 'a3333333-3333-4333-8333-333333333333' $$,
  '42501', null, 'a member cannot refresh their own verification');
select is_empty($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id in ('a1111111-1111-4111-8111-111111111111', 'a2222222-2222-4222-8222-222222222222') returning user_id $$,
  'a member cannot remove the owner or a moderator');
select results_eq($$ delete from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' and user_id = 'a3333333-3333-4333-8333-333333333333' returning user_id $$,
  $$ values ('a3333333-3333-4333-8333-333333333333'::uuid) $$, 'a member leaves a gated room');
select is_empty($$ select 1 from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' $$, '... and no longer reads its members');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b2222222-2222-4222-8222-222222222222', 'a3333333-3333-4333-8333-333333333333') $$,
  '42501', null, '... nor rejoins it by themself');

-- ---------------------------------------------------------------------------------------------
-- a moderator
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a2222222-2222-4222-8222-222222222222');
select is((select private.room_role('b1111111-1111-4111-8111-111111111111')), 'moderator', 'room_role: moderator');
select is_empty($$ update public.memberships set role = 'moderator' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning role $$,
  'a moderator cannot promote a member');
select is_empty($$ update public.memberships set role = 'member' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a5555555-5555-4555-8555-555555555555' returning role $$,
  'a moderator cannot demote another moderator');
select is_empty($$ update public.memberships set role = 'owner' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a2222222-2222-4222-8222-222222222222' returning role $$,
  'a moderator cannot make themself owner');
select is_empty($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a5555555-5555-4555-8555-555555555555' returning user_id $$,
  'a moderator cannot remove another moderator');
select is_empty($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a1111111-1111-4111-8111-111111111111' returning user_id $$,
  'a moderator cannot remove the owner');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b2222222-2222-4222-8222-222222222222', 'a4444444-4444-4444-8444-444444444444') $$,
  '42501', null, 'a moderator cannot add someone to a gated room');
select results_eq($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning user_id $$,
  $$ values ('a3333333-3333-4333-8333-333333333333'::uuid) $$, 'a moderator removes a member');
select results_eq($$ delete from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' and user_id = 'a2222222-2222-4222-8222-222222222222' returning user_id $$,
  $$ values ('a2222222-2222-4222-8222-222222222222'::uuid) $$, 'a moderator leaves a room');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a3333333-3333-4333-8333-333333333333');
select pg_temp.act_as('authenticated', 'a1111111-1111-4111-8111-111111111111');
select is((select private.room_role('b1111111-1111-4111-8111-111111111111')), 'owner', 'room_role: owner');
select results_eq($$ update public.memberships set role = 'moderator' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning role $$,
  $$ values ('moderator'::text) $$, 'the owner promotes a member to moderator');
select results_eq($$ update public.memberships set role = 'member' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning role $$,
  $$ values ('member'::text) $$, 'the owner demotes a moderator to member');
select throws_ok($$ update public.memberships set role = 'owner' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' $$,
  '42501', 'new row violates row-level security policy for table "memberships"', 'the owner cannot make someone else owner');
select is_empty($$ update public.memberships set role = 'member' where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a1111111-1111-4111-8111-111111111111' returning role $$,
  'the owner cannot change their own role');
select is_empty($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a1111111-1111-4111-8111-111111111111' returning user_id $$,
  'the owner cannot remove their own membership');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444') $$,
  '42501', null, 'the owner cannot add someone else');
select throws_ok($$ insert into public.memberships (room_id, user_id) values ('b2222222-2222-4222-8222-222222222222', 'a4444444-4444-4444-8444-444444444444') $$,
  '42501', null, 'the owner cannot add someone to a gated room either: only the server does');
select results_eq($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a5555555-5555-4555-8555-555555555555' returning user_id $$,
  $$ values ('a5555555-5555-4555-8555-555555555555'::uuid) $$, 'the owner removes a moderator');
select results_eq($$ delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333' returning user_id $$,
  $$ values ('a3333333-3333-4333-8333-333333333333'::uuid) $$, 'the owner removes a member');
select pg_temp.act_as_superuser();
select results_eq($$ select member_count, (select count(*)::int from public.memberships m where m.room_id = r.id) from public.rooms r where r.id = 'b1111111-1111-4111-8111-111111111111' $$,
  $$ values (2, 2) $$, 'member_count followed every join, leave and removal');

-- ---------------------------------------------------------------------------------------------
-- service_role (the join-room function)
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('service_role');
select lives_ok($$ insert into public.memberships (room_id, user_id, verified_wallet, verified_at)
    values ('b2222222-2222-4222-8222-222222222222', 'a4444444-4444-4444-8444-444444444444', '0x1111111111111111111111111111111111111111', now()) $$,
  'the server adds a verified member to a gated room');
select lives_ok($$ update public.memberships set verified_at = now() where room_id = 'b2222222-2222-4222-8222-222222222222' and user_id = 'a4444444-4444-4444-8444-444444444444' $$,
  'the server refreshes a member''s verification');
select is((select count(*)::int from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222'), 3, 'the server reads every membership');
select throws_like($$ select pg_temp.at_commit($q$ delete from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' and role = 'owner' $q$) $$,
  '%A room''s owner stays its member%', 'even the server cannot remove the owner''s membership');
select throws_like($$ select pg_temp.at_commit($q$ update public.memberships set role = 'member' where room_id = 'b2222222-2222-4222-8222-222222222222' and role = 'owner' $q$) $$,
  '%A room''s owner stays its member%', '... nor demote the owner');
select results_eq($$ delete from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' and user_id = 'a4444444-4444-4444-8444-444444444444' returning user_id $$,
  $$ values ('a4444444-4444-4444-8444-444444444444'::uuid) $$, 'the server removes a member whose wallets no longer qualify');
select pg_temp.act_as_superuser();
select is((select member_count from public.rooms where id = 'b2222222-2222-4222-8222-222222222222'), 2, 'the gated room counts its owner and remaining moderator');

-- ---------------------------------------------------------------------------------------------
-- lifecycle and shape
-- ---------------------------------------------------------------------------------------------
delete from auth.users where id = 'a5555555-5555-4555-8555-555555555555';
select is((select member_count from public.rooms where id = 'b2222222-2222-4222-8222-222222222222'), 1, 'a deleted account''s memberships leave the counts');
delete from public.rooms where id = 'b2222222-2222-4222-8222-222222222222';
select is_empty($$ select 1 from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' $$, 'deleting a room deletes its memberships, the owner''s too');
delete from auth.users where id = 'a1111111-1111-4111-8111-111111111111';
select is_empty($$ select 1 from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' $$, 'deleting the owner''s account deletes the room and its memberships');
select lives_ok($$ set constraints all immediate $$, '... consistently at commit');
set constraints all deferred;
select policies_are('public', 'memberships', array['Members are listed to those who may read the room', 'Anyone signed in joins a public room',
  'Only the owner changes roles, never the owner''s own', 'Members leave; moderators remove members; the owner removes anyone but themself',
  'A user with a verified factor changes roles only at aal2', 'With a verified factor, removing others needs aal2'],
  'memberships has exactly the expected policies');
select col_is_pk('public', 'memberships', array['room_id', 'user_id'], 'a user belongs to a room once; the key indexes room_id');
select has_index('public', 'memberships', 'memberships_user_id_idx', 'the policy column user_id is indexed');
select is((select count(*)::int from information_schema.routine_privileges where routine_schema = 'private' and routine_name in ('room_role', 'can_read_room_content')
  and grantee = 'authenticated'), 2, 'the helpers are callable by policies (authenticated may execute them)');
select hasnt_function('public', 'room_role', '... but they are not in the API schema');
select hasnt_function('public', 'my_room_ids', 'the caller''s-rooms helper is not in the API schema either');


select * from finish();
rollback;
