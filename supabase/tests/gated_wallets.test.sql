-- A token admits one account to a gated room: unlinking a wallet ends the gated memberships it
-- qualified (ordinary members only; owners and moderators keep their place), at once and whoever
-- unlinks; one wallet backs at most one membership per room.
begin;
create extension if not exists pgtap with schema extensions;
select plan(10);

\ir helpers/roles.psql

-- a: holder who joined two gated rooms and a public one with wallet w1; m: moderator of the
-- second gated room, backed by w2; o: owner of the rooms
insert into auth.users (id, aud, role, email, created_at, updated_at) values
  ('6a000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'gw-holder@example.test', now(), now()),
  ('6a000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'gw-mod@example.test', now(), now()),
  ('6a000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'gw-owner@example.test', now(), now()),
  ('6a000000-0000-4000-8000-00000000000d', 'authenticated', 'authenticated', 'gw-next@example.test', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('6b000000-0000-4000-8000-000000000001', 'gw-gated-one', 'Gated one', '6a000000-0000-4000-8000-00000000000c', 'gated'),
  ('6b000000-0000-4000-8000-000000000002', 'gw-gated-two', 'Gated two', '6a000000-0000-4000-8000-00000000000c', 'gated'),
  ('6b000000-0000-4000-8000-000000000003', 'gw-public', 'Public', '6a000000-0000-4000-8000-00000000000c', 'public');
insert into public.room_gates (room_id, chain_id, contract_address, standard) values
  ('6b000000-0000-4000-8000-000000000001', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721'),
  ('6b000000-0000-4000-8000-000000000002', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
insert into public.wallets (address, user_id) values
  ('0x6a0000000000000000000000000000000000000a', '6a000000-0000-4000-8000-00000000000a'),
  ('0x6a0000000000000000000000000000000000000b', '6a000000-0000-4000-8000-00000000000b'),
  ('0x6a000000000000000000000000000000000000a2', '6a000000-0000-4000-8000-00000000000a');
insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('6b000000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000a', 'member', '0x6a0000000000000000000000000000000000000a', now()),
  ('6b000000-0000-4000-8000-000000000002', '6a000000-0000-4000-8000-00000000000a', 'member', '0x6a000000000000000000000000000000000000a2', now()),
  ('6b000000-0000-4000-8000-000000000002', '6a000000-0000-4000-8000-00000000000b', 'moderator', '0x6a0000000000000000000000000000000000000b', now());
insert into public.memberships (room_id, user_id) values
  ('6b000000-0000-4000-8000-000000000003', '6a000000-0000-4000-8000-00000000000a');

create function pg_temp.rooms_of(person uuid) returns text[]
language sql as $$ select coalesce(array_agg(r.slug order by r.slug), '{}') from public.memberships m join public.rooms r on r.id = m.room_id where m.user_id = person $$;

-- One wallet, one membership per room.
select throws_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('6b000000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000d', 'member', '0x6a0000000000000000000000000000000000000a', now()) $$,
  '23505', null, 'a wallet that already admits someone to a room admits nobody else to it');
select lives_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('6b000000-0000-4000-8000-000000000002', '6a000000-0000-4000-8000-00000000000d', 'member', '0x6a0000000000000000000000000000000000000a', now()) $$,
  '… while it may back the same person''s place in another room');
delete from public.memberships where user_id = '6a000000-0000-4000-8000-00000000000d';

-- The holder unlinks the wallet that let them into the first gated room.
select pg_temp.act_as('authenticated', '6a000000-0000-4000-8000-00000000000a');
delete from public.wallets where address = '0x6a0000000000000000000000000000000000000a';
select pg_temp.act_as_superuser();
select is(pg_temp.rooms_of('6a000000-0000-4000-8000-00000000000a'), array['gw-gated-two', 'gw-public'],
  'unlinking a wallet ends the gated membership it qualified, at once; a membership another wallet backs and a public room''s stay');
select is((select count(*)::int from realtime.messages where topic = 'room:6b000000-0000-4000-8000-000000000001' and event = 'memberships' and payload->>'operation' = 'DELETE'), 1,
  '… and the room''s channel hears the membership end');

-- Another account may now link the wallet and be let in by it.
insert into public.wallets (address, user_id) values ('0x6a0000000000000000000000000000000000000a', '6a000000-0000-4000-8000-00000000000d');
select lives_ok($$ insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('6b000000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-00000000000d', 'member', '0x6a0000000000000000000000000000000000000a', now()) $$,
  'the wallet, linked to another account, lets that account in (and only that one)');

-- A moderator's place does not hang on a wallet.
select pg_temp.act_as('authenticated', '6a000000-0000-4000-8000-00000000000b');
delete from public.wallets where address = '0x6a0000000000000000000000000000000000000b';
select pg_temp.act_as_superuser();
select is(pg_temp.rooms_of('6a000000-0000-4000-8000-00000000000b'), array['gw-gated-two'], 'a moderator who unlinks the wallet keeps their place');

-- A room made public since: its members stay when they unlink.
update public.rooms set visibility = 'public' where id = '6b000000-0000-4000-8000-000000000002';
delete from public.room_gates where room_id = '6b000000-0000-4000-8000-000000000002';
select pg_temp.act_as('authenticated', '6a000000-0000-4000-8000-00000000000a');
delete from public.wallets where address = '0x6a000000000000000000000000000000000000a2';
select pg_temp.act_as_superuser();
select is(pg_temp.rooms_of('6a000000-0000-4000-8000-00000000000a'), array['gw-gated-two', 'gw-public'], 'a room that is public now keeps a member who unlinks the wallet that once let them in');

-- The account goes: its wallets and their memberships with it.
delete from auth.users where id = '6a000000-0000-4000-8000-00000000000d';
select is(pg_temp.rooms_of('6a000000-0000-4000-8000-00000000000d'), '{}'::text[], 'a deleted account''s gated memberships go with its wallets');
select is_empty($$ select 1 from public.wallets where address = '0x6a0000000000000000000000000000000000000a' $$, '… and the wallet is free for someone else');
select lives_ok($$ set constraints all immediate $$, '… consistently at commit');

select * from finish();
rollback;
