-- rooms: the slug, name and description rules, the owner's membership, the gate checked at commit,
-- member counts, the create_room RPC, and every role × operation.
begin;
create extension if not exists pgtap with schema extensions;
select plan(87);

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
select lives_ok($$ set constraints all immediate $$, 'the fixture rooms are consistent at commit');
set constraints all deferred;

-- ---------------------------------------------------------------------------------------------
-- Rules (as the superuser, so only constraints and triggers decide)
-- ---------------------------------------------------------------------------------------------
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('ab', 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'a 2-character slug is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values (repeat('a', 49), 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'a 49-character slug is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('Loud-Room', 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'an upper-case slug is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('-room', 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'a slug starting with - is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('room-', 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'a slug ending with - is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('my room', 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'a slug with a space is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('room_1', 'x', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_slug_format%', 'a slug with _ is rejected');
select lives_ok($$ insert into public.rooms (slug, name, owner_id) values ('abc', 'x', 'a4444444-4444-4444-8444-444444444444'),
  (repeat('a', 47) || '9', 'y', 'a4444444-4444-4444-8444-444444444444'), ('a-1-b', 'z', 'a4444444-4444-4444-8444-444444444444') $$,
  'slugs of 3 and 48 characters, with inner -, are accepted');
select throws_ok($$ insert into public.rooms (slug, name, owner_id) values ('open-room', 'Another', 'a4444444-4444-4444-8444-444444444444') $$,
  '23505', 'duplicate key value violates unique constraint "rooms_slug_key"', 'a taken slug is refused by rooms_slug_key');
select is(obj_description((select oid from pg_constraint where conname = 'rooms_slug_key'), 'pg_constraint'), 'That address is taken',
  'the taken-slug constraint says "That address is taken"');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('no-name', '', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_name_length%', 'an empty name is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('blank-name', '   ', 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_name_length%', 'a name of spaces is rejected');
select throws_like($$ insert into public.rooms (slug, name, owner_id) values ('long-name', repeat('n', 81), 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_name_length%', 'an 81-character name is rejected');
select throws_like($$ insert into public.rooms (slug, name, description, owner_id) values ('long-desc', 'x', repeat('d', 501), 'a4444444-4444-4444-8444-444444444444') $$,
  '%rooms_description_length%', 'a 501-character description is rejected');
select lives_ok($$ insert into public.rooms (slug, name, description, owner_id) values ('full-room', repeat('é', 80), repeat('d', 500), 'a4444444-4444-4444-8444-444444444444') $$,
  'an 80-character name and a 500-character description are accepted');
select throws_like($$ insert into public.rooms (slug, name, owner_id, visibility) values ('secret', 'x', 'a4444444-4444-4444-8444-444444444444', 'private') $$,
  '%rooms_visibility%', 'visibility is public or gated');
select throws_like($$ update public.rooms set cover_path = 'b2222222-2222-4222-8222-222222222222/cover.png' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '%rooms_cover_path_in_own_folder%', 'a cover lives in the room''s own folder');

select results_eq($$ select user_id, role from public.memberships where room_id = (select id from public.rooms where slug = 'abc') $$,
  $$ values ('a4444444-4444-4444-8444-444444444444'::uuid, 'owner'::text) $$,
  'the owner becomes a member with role owner when the room is created');
select is((select member_count from public.rooms where slug = 'abc'), 1, 'a new room counts its owner');
select is((select member_count from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), 3, 'member_count counts owner, moderator and member');

select throws_like($$ select pg_temp.at_commit($q$ insert into public.rooms (slug, name, owner_id, visibility) values ('no-gate', 'x', 'a4444444-4444-4444-8444-444444444444', 'gated') $q$) $$,
  '%A gated room needs a gate%', 'a gated room without a gate is refused at commit');
select throws_like($$ select pg_temp.at_commit($q$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b1111111-1111-4111-8111-111111111111', 1, '0x1111111111111111111111111111111111111111', 'erc20') $q$) $$,
  '%A public room has no gate%', 'a gate on a public room is refused at commit');
select throws_like($$ select pg_temp.at_commit($q$ update public.rooms set visibility = 'public' where id = 'b2222222-2222-4222-8222-222222222222' $q$) $$,
  '%A public room has no gate%', 'making a gated room public while its gate stays is refused at commit');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select results_eq($$ select slug, visibility, member_count from public.rooms where id in ('b1111111-1111-4111-8111-111111111111', 'b2222222-2222-4222-8222-222222222222') order by slug $$,
  $$ values ('gated-room'::text, 'gated'::text, 3), ('open-room', 'public', 3) $$,
  'anon reads public and gated rooms alike, with their member counts');
select throws_ok($$ insert into public.rooms (slug, name, owner_id) values ('anon-room', 'x', 'a1111111-1111-4111-8111-111111111111') $$,
  '42501', null, 'anon cannot insert a room');
select throws_ok($$ update public.rooms set name = 'Hijacked' $$, '42501', null, 'anon cannot update a room');
select throws_ok($$ delete from public.rooms $$, '42501', null, 'anon cannot delete a room');
select throws_ok($$ select public.create_room('anon-room', 'x') $$, '42501', null, 'anon cannot call create_room');

-- ---------------------------------------------------------------------------------------------
-- a signed-in user who belongs to neither room
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a4444444-4444-4444-8444-444444444444');
select is((select count(*)::int from public.rooms where id in ('b1111111-1111-4111-8111-111111111111', 'b2222222-2222-4222-8222-222222222222')), 2,
  'a non-member reads both rooms');
select throws_ok($$ insert into public.rooms (slug, name, owner_id) values ('not-mine', 'x', 'a1111111-1111-4111-8111-111111111111') $$,
  '42501', 'new row violates row-level security policy for table "rooms"', 'a user cannot create a room owned by someone else');
select throws_ok($$ insert into public.rooms (slug, name, owner_id, member_count) values ('counted', 'x', 'a4444444-4444-4444-8444-444444444444', 1000) $$,
  '42501', null, 'a user cannot set member_count');
select lives_ok($$ insert into public.rooms (slug, name, owner_id) values ('outsider-room', 'Mine', 'a4444444-4444-4444-8444-444444444444') $$,
  'a user creates a public room they own');
select is_empty($$ update public.rooms set name = 'Hijacked' where id = 'b1111111-1111-4111-8111-111111111111' returning id $$,
  'a non-member''s update of a room matches no row');
select is_empty($$ delete from public.rooms where id = 'b2222222-2222-4222-8222-222222222222' returning id $$,
  'a non-member''s delete of a room matches no row');
select is((select (public.create_room('made-by-rpc', 'Made by RPC', 'Hello')).owner_id), 'a4444444-4444-4444-8444-444444444444'::uuid,
  'create_room creates a public room owned by the caller');
select results_eq($$ select r.visibility, r.member_count, m.role from public.rooms r join public.memberships m on m.room_id = r.id where r.slug = 'made-by-rpc' $$,
  $$ values ('public'::text, 1, 'owner'::text) $$, '... with the caller as its owner member');
select lives_ok($$ select pg_temp.at_commit($q$ select public.create_room('gated-by-rpc', 'Gated by RPC', '',
    '{"chain_id": 8453, "contract_address": "0xAbCdEf0123456789ABCDEF0123456789abcdef01", "standard": "erc1155", "token_id": "7", "min_balance": "5"}') $q$) $$,
  'create_room creates a gated room with its gate, consistent at commit');
select results_eq($$ select r.visibility, g.chain_id, g.contract_address, g.standard, g.token_id, g.min_balance
    from public.rooms r join public.room_gates g on g.room_id = r.id where r.slug = 'gated-by-rpc' $$,
  $$ values ('gated'::text, 8453, '0xabcdef0123456789abcdef0123456789abcdef01'::text, 'erc1155'::text, '7'::text, '5'::text) $$,
  '... whose gate is stored with a lowercase address');
select lives_ok($$ select pg_temp.at_commit($q$ select public.create_room('null-gate', 'JSON null gate', '', 'null'::jsonb) $q$) $$,
  'a JSON null gate means no gate');
select is((select visibility from public.rooms where slug = 'null-gate'), 'public', '... so the room is public');
select throws_ok($$ select public.create_room('open-room', 'Taken') $$, '23505', 'duplicate key value violates unique constraint "rooms_slug_key"',
  'create_room with a taken slug fails on rooms_slug_key');
select throws_like($$ select public.create_room('Bad Slug', 'x') $$, '%rooms_slug_format%', 'create_room with a bad slug fails on the slug rule');
select throws_like($$ select public.create_room('half-written', 'x', '', '{"chain_id": 56, "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc20"}') $$,
  '%room_gates_chain_supported%', 'create_room with an unsupported chain fails');
select is_empty($$ select 1 from public.rooms where slug = 'half-written' $$, '... and leaves no room without its gate');
select throws_like($$ select public.create_room('half-written', 'x', '', '"erc20"') $$, '%A gate is an object%', 'create_room refuses a gate that is not an object');

-- ---------------------------------------------------------------------------------------------
-- a member
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a3333333-3333-4333-8333-333333333333');
select is_empty($$ update public.rooms set name = 'Member edit' where id = 'b1111111-1111-4111-8111-111111111111' returning id $$,
  'a member cannot edit the room');
select is_empty($$ delete from public.rooms where id = 'b1111111-1111-4111-8111-111111111111' returning id $$,
  'a member cannot delete the room');
select throws_ok($$ update public.rooms set owner_id = 'a3333333-3333-4333-8333-333333333333' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'a member cannot make themself the owner');

-- ---------------------------------------------------------------------------------------------
-- a moderator
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a2222222-2222-4222-8222-222222222222');
select results_eq($$ update public.rooms set name = 'Renamed by mod', description = 'New words', cover_path = 'b1111111-1111-4111-8111-111111111111/cover.webp'
    where id = 'b1111111-1111-4111-8111-111111111111' returning name, description, cover_path $$,
  $$ values ('Renamed by mod'::text, 'New words'::text, 'b1111111-1111-4111-8111-111111111111/cover.webp'::text) $$,
  'a moderator edits the name, description and cover');
select throws_ok($$ update public.rooms set slug = 'mod-slug' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '42501', 'Only the owner changes the room''s address or who may enter it', 'a moderator cannot change the slug');
select throws_ok($$ update public.rooms set visibility = 'gated' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '42501', 'Only the owner changes the room''s address or who may enter it', 'a moderator cannot change the visibility');
select throws_ok($$ update public.rooms set owner_id = 'a2222222-2222-4222-8222-222222222222' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'a moderator cannot take ownership');
select throws_ok($$ update public.rooms set member_count = 0 where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'a moderator cannot set member_count');
select is_empty($$ delete from public.rooms where id = 'b1111111-1111-4111-8111-111111111111' returning id $$,
  'a moderator cannot delete the room');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a1111111-1111-4111-8111-111111111111');
select results_eq($$ update public.rooms set slug = 'opened-room', name = 'Opened room' where id = 'b1111111-1111-4111-8111-111111111111' returning slug $$,
  $$ values ('opened-room'::text) $$, 'the owner changes the slug and name');
select throws_like($$ update public.rooms set slug = 'Opened Room' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '%rooms_slug_format%', 'the owner''s bad slug is refused');
select throws_ok($$ update public.rooms set slug = 'gated-room' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '23505', null, 'the owner cannot take another room''s slug');
select throws_like($$ select pg_temp.at_commit($q$ update public.rooms set visibility = 'gated' where id = 'b1111111-1111-4111-8111-111111111111' $q$) $$,
  '%A gated room needs a gate%', 'the owner cannot gate a room without a gate');
select throws_ok($$ update public.rooms set owner_id = 'a3333333-3333-4333-8333-333333333333' where id = 'b1111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'the owner cannot hand the room to someone else by update');
select lives_ok($$ select pg_temp.at_commit($q$ update public.rooms set visibility = 'public' where id = 'b2222222-2222-4222-8222-222222222222';
    delete from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' $q$) $$,
  'the owner opens a gated room by removing its gate and its visibility together');
select results_eq($$ delete from public.rooms where id = 'b2222222-2222-4222-8222-222222222222' returning slug $$,
  $$ values ('gated-room'::text) $$, 'the owner deletes the room');
select pg_temp.act_as_superuser();
select is_empty($$ select 1 from public.memberships where room_id = 'b2222222-2222-4222-8222-222222222222' $$, 'its memberships go with it');
select is_empty($$ select 1 from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' $$, 'and its gate');
select lives_ok($$ set constraints all immediate $$, 'deleting a room and its owner membership is consistent at commit');
set constraints all deferred;

-- ---------------------------------------------------------------------------------------------
-- service_role (server code)
-- ---------------------------------------------------------------------------------------------
select set_config('test.room_count', (select count(*) from public.rooms)::text, true);
select pg_temp.act_as('service_role');
select is((select count(*)::text from public.rooms), current_setting('test.room_count'), 'the server reads every room');
select lives_ok($$ insert into public.rooms (id, slug, name, owner_id) values ('b3333333-3333-4333-8333-333333333333', 'server-room', 'Server', 'a3333333-3333-4333-8333-333333333333') $$,
  'the server creates a room for a user');
select is((select role from public.memberships where room_id = 'b3333333-3333-4333-8333-333333333333' and user_id = 'a3333333-3333-4333-8333-333333333333'), 'owner',
  '... who becomes its owner member');
select lives_ok($$ update public.rooms set name = 'Server renamed', slug = 'server-renamed' where id = 'b3333333-3333-4333-8333-333333333333' $$,
  'the server edits a room, slug included');
select throws_ok($$ select public.create_room('server-rpc', 'x') $$, '42501', 'Sign in to create a room',
  'create_room needs a signed-in user: without one it says so');
select results_eq($$ delete from public.rooms where id = 'b3333333-3333-4333-8333-333333333333' returning slug $$,
  $$ values ('server-renamed'::text) $$, 'the server deletes a room');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- member counts and updated_at
-- ---------------------------------------------------------------------------------------------
select is((select member_count from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), 3, 'the public room still counts 3');
select pg_temp.act_as('authenticated', 'a4444444-4444-4444-8444-444444444444');
insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a4444444-4444-4444-8444-444444444444');
select pg_temp.act_as_superuser();
select is((select member_count from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), 4, 'a join adds one');
select pg_temp.act_as('authenticated', 'a4444444-4444-4444-8444-444444444444');
delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a4444444-4444-4444-8444-444444444444';
select pg_temp.act_as_superuser();
select is((select member_count from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), 3, 'a leave takes one away');
select pg_temp.act_as('authenticated', 'a2222222-2222-4222-8222-222222222222');
delete from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111' and user_id = 'a3333333-3333-4333-8333-333333333333';
select pg_temp.act_as_superuser();
select is((select member_count from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), 2, 'a removal takes one away');
select is((select member_count from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'),
  (select count(*)::int from public.memberships where room_id = 'b1111111-1111-4111-8111-111111111111'), 'the count matches the memberships');
set local session_replication_role = replica; -- no triggers: backdate updated_at as it is
update public.rooms set updated_at = '2020-01-01' where id = 'b1111111-1111-4111-8111-111111111111';
set local session_replication_role = origin;
insert into public.memberships (room_id, user_id) values ('b1111111-1111-4111-8111-111111111111', 'a3333333-3333-4333-8333-333333333333');
select is((select updated_at from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), '2020-01-01'::timestamptz,
  'a join is not an edit: updated_at stays');
update public.rooms set name = 'Edited' where id = 'b1111111-1111-4111-8111-111111111111';
select isnt((select updated_at from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), '2020-01-01'::timestamptz,
  'an edit touches updated_at');

-- ---------------------------------------------------------------------------------------------
-- lifecycle and shape
-- ---------------------------------------------------------------------------------------------
delete from auth.users where id = 'a4444444-4444-4444-8444-444444444444';
select is_empty($$ select 1 from public.rooms where owner_id = 'a4444444-4444-4444-8444-444444444444' $$, 'deleting an account deletes the rooms it owns');
select lives_ok($$ set constraints all immediate $$, '... consistently at commit');
set constraints all deferred;
select policies_are('public', 'rooms', array['Rooms are listed for everyone', 'Signed-in users create rooms they own', 'Owner and moderators edit the room', 'Only the owner deletes the room',
  'With a verified factor, rooms change only at aal2', 'With a verified factor, rooms are deleted only at aal2'],
  'rooms has exactly the expected policies');
select has_index('public', 'rooms', 'rooms_owner_id_idx', 'the policy column owner_id is indexed');
select has_index('public', 'rooms', 'rooms_name_trgm_idx', 'names have a trigram index for the directory search');
select has_index('public', 'rooms', 'rooms_created_at_id_idx', 'the directory order has an index');
select hasnt_function('public', 'room_role', 'the role helper is not in the API schema');
select hasnt_function('public', 'can_read_room_content', 'the read helper is not in the API schema');
select is((select count(*)::int from pg_proc where proname in ('create_room', 'set_room_gate') and pronamespace = 'public'::regnamespace and prosecdef), 0,
  'create_room and set_room_gate run as the caller, so policies apply');

select * from finish();
rollback;
