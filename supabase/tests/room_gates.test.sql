-- room_gates: chain, address, standard, token id and min_balance rules, the gate checked at commit,
-- set_room_gate, and every role × operation.
begin;
create extension if not exists pgtap with schema extensions;
select plan(76);

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

-- a second gated room whose gate the rule checks rewrite
insert into public.rooms (id, slug, name, owner_id, visibility)
values ('b3333333-3333-4333-8333-333333333333', 'rules-room', 'Rules', 'a4444444-4444-4444-8444-444444444444', 'gated');
insert into public.room_gates (room_id, chain_id, contract_address, standard)
values ('b3333333-3333-4333-8333-333333333333', 1, '0x1111111111111111111111111111111111111111', 'erc20');
select lives_ok($$ set constraints all immediate $$, 'the fixture rooms are consistent at commit');
set constraints all deferred;

-- Rewrites the rules room's gate (as the superuser: only constraints decide).
create function pg_temp.gate(chain_id integer, contract_address text, standard text, token_id text, min_balance text) returns void
language sql as $$
  update public.room_gates g set chain_id = gate.chain_id, contract_address = gate.contract_address, standard = gate.standard,
    token_id = gate.token_id, min_balance = gate.min_balance
  where g.room_id = 'b3333333-3333-4333-8333-333333333333';
$$;

-- ---------------------------------------------------------------------------------------------
-- Rules
-- ---------------------------------------------------------------------------------------------
select throws_like($$ select pg_temp.gate(56, '0x1111111111111111111111111111111111111111', 'erc20', null, '1') $$,
  '%room_gates_chain_supported%', 'an unsupported chain (BNB, 56) is rejected');
select throws_like($$ select pg_temp.gate(11155111, '0x1111111111111111111111111111111111111111', 'erc20', null, '1') $$,
  '%room_gates_chain_supported%', 'a testnet is not a supported chain');
select lives_ok($$ select pg_temp.gate(c, '0x1111111111111111111111111111111111111111', 'erc20', null, '1') from unnest(array[1, 10, 137, 8453, 42161, 31337]) c $$,
  'Ethereum, Optimism, Polygon, Base, Arbitrum and the local chain are accepted');
select throws_like($$ select pg_temp.gate(1, '0x123', 'erc20', null, '1') $$, '%room_gates_contract_address_format%', 'a short address is rejected');
select throws_like($$ select pg_temp.gate(1, '1111111111111111111111111111111111111111', 'erc20', null, '1') $$,
  '%room_gates_contract_address_format%', 'an address without 0x is rejected');
select throws_like($$ select pg_temp.gate(1, '0xABABABABABABABABABABABABABABABABABABABAB', 'erc20', null, '1') $$,
  '%room_gates_contract_address_format%', 'an upper-case address is rejected: addresses are stored lowercase');
select throws_like($$ select pg_temp.gate(1, 'vitalik.eth', 'erc20', null, '1') $$, '%room_gates_contract_address_format%', 'a name is not an address');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc777', null, '1') $$,
  '%room_gates_standard%', 'the standard is erc20, erc721 or erc1155');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc1155', null, '1') $$,
  '%room_gates_token_id_for_erc1155%', 'an erc1155 gate without a token id is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', '1', '1') $$,
  '%room_gates_token_id_for_erc1155%', 'an erc20 gate with a token id is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc721', '1', '1') $$,
  '%room_gates_token_id_for_erc1155%', 'an erc721 gate with a token id is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc1155', '-1', '1') $$,
  '%room_gates_token_id_format%', 'a negative token id is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc1155', '0x1', '1') $$,
  '%room_gates_token_id_format%', 'a hex token id is rejected: token ids are decimal');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc1155', '007', '1') $$,
  '%room_gates_token_id_format%', 'a token id with leading zeros is rejected');
select lives_ok($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc1155', '0', '1') $$, 'token id 0 is a token id');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, '0') $$,
  '%room_gates_min_balance_positive%', 'min_balance 0 is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, '-1') $$,
  '%room_gates_min_balance_positive%', 'a negative min_balance is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, 'abc') $$,
  '%room_gates_min_balance_positive%', 'a non-numeric min_balance is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, '1.5') $$,
  '%room_gates_min_balance_positive%', 'a fractional min_balance is rejected: amounts are in smallest units');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, '') $$,
  '%room_gates_min_balance_positive%', 'an empty min_balance is rejected');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, '1e18') $$,
  '%room_gates_min_balance_positive%', 'an exponent is not a min_balance');
select throws_like($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, repeat('9', 79)) $$,
  '%room_gates_min_balance_positive%', 'a min_balance beyond uint256''s 78 digits is rejected');
select lives_ok($$ select pg_temp.gate(1, '0x1111111111111111111111111111111111111111', 'erc20', null, '115792089237316195423570985008687907853269984665640564039457584007913129639935') $$,
  'the largest uint256 is a min_balance, kept exactly as text');
select is((select min_balance from public.room_gates where room_id = 'b3333333-3333-4333-8333-333333333333'),
  '115792089237316195423570985008687907853269984665640564039457584007913129639935', '... with every digit');
select throws_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b3333333-3333-4333-8333-333333333333', 1, '0x1111111111111111111111111111111111111111', 'erc20') $$,
  '23505', null, 'a room has at most one gate');
select is(obj_description((select oid from pg_constraint where conname = 'room_gates_chain_supported'), 'pg_constraint'), 'That chain is not supported',
  'the chain rule explains itself');
select is(obj_description((select oid from pg_constraint where conname = 'room_gates_min_balance_positive'), 'pg_constraint'), 'The minimum balance is a whole number of at least 1',
  'the min_balance rule explains itself');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select results_eq($$ select chain_id, contract_address, standard, min_balance from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' $$,
  $$ values (31337, '0xabababababababababababababababababababab'::text, 'erc721'::text, '1'::text) $$, 'anon reads a gated room''s gate');
select throws_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b1111111-1111-4111-8111-111111111111', 1, '0x1111111111111111111111111111111111111111', 'erc20') $$,
  '42501', null, 'anon cannot insert a gate');
select throws_ok($$ update public.room_gates set min_balance = '2' $$, '42501', null, 'anon cannot update a gate');
select throws_ok($$ delete from public.room_gates $$, '42501', null, 'anon cannot delete a gate');
select throws_ok($$ select public.set_room_gate('b2222222-2222-4222-8222-222222222222', null) $$, '42501', null, 'anon cannot call set_room_gate');

-- ---------------------------------------------------------------------------------------------
-- a non-member, a member, a moderator: none changes the gate
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a4444444-4444-4444-8444-444444444444');
select is((select count(*)::int from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222'), 1, 'a non-member reads the gate');
select throws_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b1111111-1111-4111-8111-111111111111', 1, '0x1111111111111111111111111111111111111111', 'erc20') $$,
  '42501', 'new row violates row-level security policy for table "room_gates"', 'a non-member cannot gate someone''s room');
select is_empty($$ update public.room_gates set min_balance = '100' where room_id = 'b2222222-2222-4222-8222-222222222222' returning room_id $$,
  'a non-member''s gate update matches no row');
select is_empty($$ delete from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' returning room_id $$,
  'a non-member''s gate delete matches no row');
select throws_ok($$ select public.set_room_gate('b2222222-2222-4222-8222-222222222222', null) $$, '42501', 'Only the owner changes who may enter the room',
  'a non-member cannot remove the gate through set_room_gate');

select pg_temp.act_as('authenticated', 'a3333333-3333-4333-8333-333333333333');
select is((select count(*)::int from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222'), 1, 'a member reads the gate');
select is_empty($$ update public.room_gates set min_balance = '100' where room_id = 'b2222222-2222-4222-8222-222222222222' returning room_id $$,
  'a member''s gate update matches no row');
select is_empty($$ delete from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' returning room_id $$,
  'a member''s gate delete matches no row');
select throws_ok($$ select public.set_room_gate('b2222222-2222-4222-8222-222222222222', '{"chain_id": 1, "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc20"}') $$,
  '42501', 'Only the owner changes who may enter the room', 'a member cannot replace the gate through set_room_gate');

select pg_temp.act_as('authenticated', 'a2222222-2222-4222-8222-222222222222');
select throws_ok($$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b1111111-1111-4111-8111-111111111111', 1, '0x1111111111111111111111111111111111111111', 'erc20') $$,
  '42501', 'new row violates row-level security policy for table "room_gates"', 'a moderator cannot gate the room');
select is_empty($$ update public.room_gates set min_balance = '100' where room_id = 'b2222222-2222-4222-8222-222222222222' returning room_id $$,
  'a moderator''s gate update matches no row');
select is_empty($$ delete from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' returning room_id $$,
  'a moderator''s gate delete matches no row');
select throws_ok($$ select public.set_room_gate('b2222222-2222-4222-8222-222222222222', null) $$, '42501', 'Only the owner changes who may enter the room',
  'a moderator cannot remove the gate through set_room_gate');
select throws_ok($$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', '{"chain_id": 1, "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc20"}') $$,
  '42501', 'Only the owner changes who may enter the room', 'a moderator cannot gate the room through set_room_gate');
select pg_temp.act_as_superuser();
select results_eq($$ select min_balance, (select visibility from public.rooms where id = room_id) from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' $$,
  $$ values ('1'::text, 'gated'::text) $$, 'the gate is unchanged after every non-owner attempt');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', 'a1111111-1111-4111-8111-111111111111');
select results_eq($$ update public.room_gates set min_balance = '3' where room_id = 'b2222222-2222-4222-8222-222222222222' returning min_balance $$,
  $$ values ('3'::text) $$, 'the owner changes the gate');
select throws_like($$ update public.room_gates set chain_id = 56 where room_id = 'b2222222-2222-4222-8222-222222222222' $$,
  '%room_gates_chain_supported%', 'the owner''s unsupported chain is refused');
select throws_like($$ select pg_temp.at_commit($q$ delete from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' $q$) $$,
  '%A gated room needs a gate%', 'the owner cannot leave a gated room without a gate');
select throws_like($$ select pg_temp.at_commit($q$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b1111111-1111-4111-8111-111111111111', 1, '0x1111111111111111111111111111111111111111', 'erc20') $q$) $$,
  '%A public room has no gate%', 'the owner cannot add a gate without gating the room');
select throws_like($$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', '{"chain_id": 56, "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc20"}') $$,
  '%room_gates_chain_supported%', 'set_room_gate refuses an unsupported chain');
select throws_like($$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', '{"chain_id": 1, "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc1155"}') $$,
  '%room_gates_token_id_for_erc1155%', 'set_room_gate refuses an erc1155 gate without a token id');
select throws_like($$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', '{"chain_id": 1, "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc20", "min_balance": "0"}') $$,
  '%room_gates_min_balance_positive%', 'set_room_gate refuses min_balance 0');
select throws_ok($$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', '{"chain_id": "base", "contract_address": "0x1111111111111111111111111111111111111111", "standard": "erc20"}') $$,
  '22P02', null, 'set_room_gate refuses a chain id that is not a number');
select is((select visibility from public.rooms where id = 'b1111111-1111-4111-8111-111111111111'), 'public', 'after refused gates the room is still public');
select lives_ok($$ select pg_temp.at_commit($q$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111',
    '{"chain_id": 10, "contract_address": "0x2222222222222222222222222222222222222222", "standard": "erc20", "min_balance": "1000000000000000000"}') $q$) $$,
  'the owner gates a public room through set_room_gate, consistent at commit');
select results_eq($$ select r.visibility, g.chain_id, g.standard, g.min_balance from public.rooms r join public.room_gates g on g.room_id = r.id
    where r.id = 'b1111111-1111-4111-8111-111111111111' $$,
  $$ values ('gated'::text, 10, 'erc20'::text, '1000000000000000000'::text) $$, '... the room is gated by that gate');
select lives_ok($$ select pg_temp.at_commit($q$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111',
    '{"chain_id": 137, "contract_address": "0x3333333333333333333333333333333333333333", "standard": "erc1155", "token_id": "42"}') $q$) $$,
  'the owner replaces the gate');
select results_eq($$ select chain_id, standard, token_id, min_balance from public.room_gates where room_id = 'b1111111-1111-4111-8111-111111111111' $$,
  $$ values (137, 'erc1155'::text, '42'::text, '1'::text) $$, '... one gate, the new one, min_balance defaulting to 1');
select throws_like($$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', '{"chain_id": 137, "contract_address": "0x3333333333333333333333333333333333333333", "standard": "erc20", "token_id": "42"}') $$,
  '%room_gates_token_id_for_erc1155%', 'a bad replacement is refused');
select is((select standard from public.room_gates where room_id = 'b1111111-1111-4111-8111-111111111111'), 'erc1155', '... and the gate stays as it was');
select lives_ok($$ select pg_temp.at_commit($q$ select public.set_room_gate('b1111111-1111-4111-8111-111111111111', null) $q$) $$,
  'the owner removes the gate, consistent at commit');
select results_eq($$ select visibility, (select count(*)::int from public.room_gates g where g.room_id = r.id) from public.rooms r where r.id = 'b1111111-1111-4111-8111-111111111111' $$,
  $$ values ('public'::text, 0) $$, '... the room is public again, with no gate');
select lives_ok($$ select pg_temp.at_commit($q$ select public.set_room_gate('b2222222-2222-4222-8222-222222222222', 'null'::jsonb) $q$) $$,
  'a JSON null gate removes the gate too');
select is((select visibility from public.rooms where id = 'b2222222-2222-4222-8222-222222222222'), 'public', '... and opens the room');

-- ---------------------------------------------------------------------------------------------
-- service_role
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('service_role');
select lives_ok($$ select pg_temp.at_commit($q$ insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('b2222222-2222-4222-8222-222222222222', 8453, '0x4444444444444444444444444444444444444444', 'erc721');
    update public.rooms set visibility = 'gated' where id = 'b2222222-2222-4222-8222-222222222222' $q$) $$,
  'the server gates a room (gate and visibility together)');
select lives_ok($$ update public.room_gates set min_balance = '2' where room_id = 'b2222222-2222-4222-8222-222222222222' $$, 'the server changes a gate');
select is((select count(*)::int from public.room_gates), (select count(*)::int from public.rooms where visibility = 'gated'), 'the server reads every gate');
select throws_like($$ select pg_temp.at_commit($q$ delete from public.room_gates where room_id = 'b2222222-2222-4222-8222-222222222222' $q$) $$,
  '%A gated room needs a gate%', 'the server too cannot leave a gated room without a gate');
select throws_ok($$ select public.set_room_gate('b2222222-2222-4222-8222-222222222222', null) $$, '42501', null,
  'set_room_gate answers for a signed-in owner only');
select pg_temp.act_as_superuser();

-- ---------------------------------------------------------------------------------------------
-- lifecycle and shape
-- ---------------------------------------------------------------------------------------------
delete from public.rooms where id = 'b3333333-3333-4333-8333-333333333333';
select is_empty($$ select 1 from public.room_gates where room_id = 'b3333333-3333-4333-8333-333333333333' $$, 'a room''s gate goes with the room');
select lives_ok($$ set constraints all immediate $$, 'everything left is consistent at commit');
set constraints all deferred;
select policies_are('public', 'room_gates', array['Gates are readable by everyone', 'Only the owner sets the gate', 'Only the owner changes the gate', 'Only the owner removes the gate',
  'A user with a verified factor sets a gate only at aal2', 'A user with a verified factor changes a gate only at aal2', 'A user with a verified factor removes a gate only at aal2'],
  'room_gates has exactly the expected policies');
select col_is_pk('public', 'room_gates', 'room_id', 'one gate per room: room_id is the key (and its index)');

select * from finish();
rollback;
