-- profiles: the trigger that creates them, the username rules, and every role × operation.
begin;
create extension if not exists pgtap with schema extensions;
select plan(41);

-- Helpers: act as a role with a request's JWT claims, the way PostgREST runs each request.
\ir helpers/roles.psql

-- Fixture users, created the way GoTrue creates them: a row in auth.users.
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'owner@example.test',
   '{"username":"owner_one","display_name":"Owner One"}', now(), now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'Other.Person+tag@example.test',
   '{}', now(), now()),
  ('33333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', 'owner.one@example.test',
   '{"username":"owner_one"}', now(), now()),
  ('44444444-4444-4444-8444-444444444444', 'authenticated', 'authenticated', null,
   '{"sub":"web3:ethereum:0xAbCdEf0123456789abcdef0123456789ABCDEF01"}', now(), now()),
  ('55555555-5555-4555-8555-555555555555', 'authenticated', 'authenticated', 'admin@example.test',
   '{"username":"admin"}', now(), now());

-- ---------------------------------------------------------------------------------------------
-- The trigger
-- ---------------------------------------------------------------------------------------------
select is((select count(*)::int from public.profiles where id in (
  '11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444',
  '55555555-5555-4555-8555-555555555555')), 5, 'a profile is created for every new auth user');

select is((select username from public.profiles where id = '11111111-1111-4111-8111-111111111111'),
  'owner_one', 'the username asked for at sign-up is used when valid and free');
select is((select display_name from public.profiles where id = '11111111-1111-4111-8111-111111111111'),
  'Owner One', 'the display name asked for at sign-up is used');
select is((select username from public.profiles where id = '22222222-2222-4222-8222-222222222222'),
  'other_person_tag', 'without a username, one is derived from the email''s local part');
select is((select display_name from public.profiles where id = '22222222-2222-4222-8222-222222222222'),
  'other_person_tag', 'without a display name, the username is shown');
select matches((select username from public.profiles where id = '33333333-3333-4333-8333-333333333333'),
  '^owner_one_[0-9]{4,5}$', 'a taken username gets a numeric suffix, keeping usernames unique');
select is((select username from public.profiles where id = '44444444-4444-4444-8444-444444444444'),
  'eth_abcdef', 'a wallet-only user gets a username from the address');
select matches((select username from public.profiles where id = '55555555-5555-4555-8555-555555555555'),
  '^user_[a-z0-9_]+$', 'a reserved username asked for at sign-up is replaced');
select ok((select bool_and(username ~ '^[a-z0-9_]{3,24}$') from public.profiles),
  'every generated username follows the username rules');

-- ---------------------------------------------------------------------------------------------
-- Username, display name, bio and avatar rules (as the superuser, so only constraints decide)
-- ---------------------------------------------------------------------------------------------
select throws_like($$ update public.profiles set username = 'ab' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_format%', 'a 2-character username is rejected by profiles_username_format');
select throws_like($$ update public.profiles set username = repeat('a', 25) where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_format%', 'a 25-character username is rejected');
select throws_like($$ update public.profiles set username = 'Owner' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_format%', 'uppercase letters are rejected');
select throws_like($$ update public.profiles set username = 'own-er' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_format%', 'a hyphen is rejected');
select throws_like($$ update public.profiles set username = 'ünïcode' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_format%', 'non-ASCII letters are rejected');
select throws_like($$ update public.profiles set username = 'settings' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_not_reserved%', 'a reserved route word is rejected by profiles_username_not_reserved');
select throws_ok($$ update public.profiles set username = 'other_person_tag' where id = '11111111-1111-4111-8111-111111111111' $$,
  '23505', null, 'a taken username is rejected with a unique violation');
select throws_like($$ update public.profiles set display_name = '   ' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_display_name_length%', 'a blank display name is rejected');
select throws_like($$ update public.profiles set display_name = repeat('x', 51) where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_display_name_length%', 'a 51-character display name is rejected');
select throws_like($$ update public.profiles set bio = repeat('x', 281) where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_bio_length%', 'a 281-character bio is rejected');
select throws_like($$ update public.profiles set avatar_path = '22222222-2222-4222-8222-222222222222/me.png' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_avatar_path_in_own_folder%', 'an avatar path outside the user''s own folder is rejected');
select lives_ok($$ update public.profiles set username = 'a_1', bio = repeat('x', 280), display_name = repeat('y', 50) where id = '11111111-1111-4111-8111-111111111111' $$,
  'the limits themselves are accepted (3-character username, 280-character bio, 50-character name)');

-- ---------------------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select ok((select count(*) from public.profiles) >= 5, 'anon can read profiles');
select throws_ok($$ insert into public.profiles (id, username, display_name) values ('66666666-6666-4666-8666-666666666666', 'intruder', 'x') $$,
  '42501', null, 'anon cannot insert a profile');
select throws_ok($$ update public.profiles set bio = 'hacked' where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'anon cannot update a profile');
select throws_ok($$ delete from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'anon cannot delete a profile');
select pg_temp.act_as_superuser();
select isnt((select bio from public.profiles where id = '11111111-1111-4111-8111-111111111111'), 'hacked', 'the profile is unchanged after anon''s attempt');

-- ---------------------------------------------------------------------------------------------
-- another signed-in user
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '22222222-2222-4222-8222-222222222222');
select is((select username from public.profiles where id = '11111111-1111-4111-8111-111111111111'), 'a_1', 'another user can read someone else''s profile');
select throws_ok($$ insert into public.profiles (id, username, display_name) values ('66666666-6666-4666-8666-666666666666', 'intruder', 'x') $$,
  '42501', null, 'a signed-in user cannot insert profiles');
select is_empty($$ update public.profiles set bio = 'hacked' where id = '11111111-1111-4111-8111-111111111111' returning id $$,
  'another user''s update of someone else''s profile matches no row');
select throws_ok($$ delete from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'another user cannot delete a profile');
select pg_temp.act_as_superuser();
select isnt((select bio from public.profiles where id = '11111111-1111-4111-8111-111111111111'), 'hacked', 'the profile is unchanged after another user''s attempt');

-- ---------------------------------------------------------------------------------------------
-- the owner
-- ---------------------------------------------------------------------------------------------
alter table public.profiles disable trigger profiles_touch_updated_at;
update public.profiles set updated_at = '2000-01-01' where id = '11111111-1111-4111-8111-111111111111';
alter table public.profiles enable trigger profiles_touch_updated_at;
select pg_temp.act_as('authenticated', '11111111-1111-4111-8111-111111111111');
select is((select username from public.profiles where id = '11111111-1111-4111-8111-111111111111'), 'a_1', 'the owner can read their profile');
select results_eq($$ update public.profiles set bio = 'Hi there', display_name = 'O. One', username = 'owner_renamed'
                     where id = '11111111-1111-4111-8111-111111111111' returning username $$,
  $$ values ('owner_renamed') $$, 'the owner can update their username, display name and bio');
select lives_ok($$ update public.profiles set avatar_path = '11111111-1111-4111-8111-111111111111/avatar-1.png' where id = '11111111-1111-4111-8111-111111111111' $$,
  'the owner can set an avatar path in their own folder');
select throws_ok($$ update public.profiles set id = '66666666-6666-4666-8666-666666666666' where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'the owner cannot change the profile''s id');
select throws_ok($$ update public.profiles set created_at = now() - interval '1 year' where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'the owner cannot change created_at');
select throws_ok($$ delete from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', null, 'the owner cannot delete the profile directly (it goes with the account)');
select throws_like($$ update public.profiles set username = 'settings' where id = '11111111-1111-4111-8111-111111111111' $$,
  '%profiles_username_not_reserved%', 'the owner gets the reserved-word constraint by name');
select pg_temp.act_as_superuser();
select is((select updated_at from public.profiles where id = '11111111-1111-4111-8111-111111111111'), now(),
  'updated_at is touched on update');

-- ---------------------------------------------------------------------------------------------
-- lifecycle: the profile goes with the account
-- ---------------------------------------------------------------------------------------------
delete from auth.users where id = '22222222-2222-4222-8222-222222222222';
select is_empty($$ select 1 from public.profiles where id = '22222222-2222-4222-8222-222222222222' $$,
  'deleting the auth user deletes the profile');
select policies_are('public', 'profiles', array['Profiles are readable by everyone', 'Users update their own profile',
  'A user with a verified factor updates their profile only at aal2'],
  'profiles has exactly the expected policies');

select * from finish();
rollback;
