-- Demo data for `npm run dev`: two confirmed accounts you can sign in with.
--   ada@cuepoint.test / cuepoint-demo     grace@cuepoint.test / cuepoint-demo
-- Their profiles come from the on_auth_user_created trigger, like any real sign-up.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change
)
values
  ('00000000-0000-0000-0000-000000000000', 'a1a1a1a1-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
   'ada@cuepoint.test', extensions.crypt('cuepoint-demo', extensions.gen_salt('bf', 10)), now(),
   '{"provider":"email","providers":["email"]}', '{"username":"ada","display_name":"Ada Lovelace"}', now(), now(), '', '', '', ''),
  ('00000000-0000-0000-0000-000000000000', 'a1a1a1a1-0000-4000-8000-000000000002', 'authenticated', 'authenticated',
   'grace@cuepoint.test', extensions.crypt('cuepoint-demo', extensions.gen_salt('bf', 10)), now(),
   '{"provider":"email","providers":["email"]}', '{"username":"grace","display_name":"Grace Hopper"}', now(), now(), '', '', '', '');

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select id::text, id, jsonb_build_object('sub', id::text, 'email', email, 'email_verified', true, 'phone_verified', false),
       'email', now(), now(), now()
from auth.users
where email in ('ada@cuepoint.test', 'grace@cuepoint.test');

update public.profiles set bio = 'Listening club host. Ask me about 70s synth records.'
where id = 'a1a1a1a1-0000-4000-8000-000000000001';
