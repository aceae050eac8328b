-- A profile's ENS name (20261129000800_profiles_carry_their_ens_name.sql): the ENS name of the
-- person's first verified wallet that has one, kept by the database as wallets come, change and go;
-- read by everyone with the profile; written by no one else.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(9);

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('48000000-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'ens-a@example.test', '{"username":"ens_a"}', now(), now()),
  ('48000000-0000-4000-8000-00000000000b', 'authenticated', 'authenticated', 'ens-b@example.test', '{"username":"ens_b"}', now(), now());

select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000a'), null, 'a profile without wallets has no ENS name');

insert into public.wallets (address, user_id, ens_name, verified_at) values
  ('0x4800000000000000000000000000000000000001', '48000000-0000-4000-8000-00000000000a', null, now() - interval '3 days');
select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000a'), null, 'a wallet without an ENS name gives none');

insert into public.wallets (address, user_id, ens_name, verified_at) values
  ('0x4800000000000000000000000000000000000002', '48000000-0000-4000-8000-00000000000a', 'later.eth', now() - interval '1 day');
select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000a'), 'later.eth', 'a linked wallet''s ENS name reaches the profile');

update public.wallets set ens_name = 'first.eth' where address = '0x4800000000000000000000000000000000000001';
select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000a'), 'first.eth', 'the first verified wallet with an ENS name wins');

delete from public.wallets where address = '0x4800000000000000000000000000000000000001';
select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000a'), 'later.eth', 'unlinking it falls back to the next wallet''s name');

delete from public.wallets where address = '0x4800000000000000000000000000000000000002';
select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000a'), null, 'unlinking the last one clears it');

insert into public.wallets (address, user_id, ens_name, verified_at) values
  ('0x4800000000000000000000000000000000000003', '48000000-0000-4000-8000-00000000000b', 'bea.eth', now());

select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000a');
select throws_ok($$update public.profiles set ens_name = 'vitalik.eth' where id = '48000000-0000-4000-8000-00000000000a'$$, '42501', null,
  'nobody sets their own ENS name');
select pg_temp.act_as('authenticated', '48000000-0000-4000-8000-00000000000b');
select throws_ok($$update public.profiles set ens_name = 'vitalik.eth' where id = '48000000-0000-4000-8000-00000000000b'$$, '42501', null,
  'not even with a wallet linked');
select pg_temp.act_as('anon');
select is((select ens_name from public.profiles where id = '48000000-0000-4000-8000-00000000000b'), 'bea.eth', 'anyone reads it with the profile');

select * from finish();
rollback;
