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

-- The demo accounts' wallets (Anvil's accounts #1 and #2; the local chain gives them ENS names and
-- tokens: ada holds 1000 CUE, CUEPASS #1 and 3 of item 1; grace holds 5 CUE). Linking is normally
-- done by signing; the seed records them as already linked. Their ENS avatars are looked up when
-- /account first shows them (ens_checked_at is empty).
insert into public.wallets (user_id, address, ens_name, verified_at) values
  ('a1a1a1a1-0000-4000-8000-000000000001', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 'ada.eth', now()),
  ('a1a1a1a1-0000-4000-8000-000000000002', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 'grace.eth', now());

-- Rooms: two open, two gated on the local chain's test tokens. The owner's membership comes from
-- the rooms trigger. A room and its gate go in one statement, so the gate check at commit holds.
insert into public.rooms (id, slug, name, description, owner_id, visibility, created_at) values
  ('b2b2b2b2-0000-4000-8000-000000000001', 'late-night-synths', 'Late Night Synths',
   'Analog and modular sets after midnight. Post a recording, mark the moment the filter opens.',
   'a1a1a1a1-0000-4000-8000-000000000001', 'public', now() - interval '4 days'),
  ('b2b2b2b2-0000-4000-8000-000000000002', 'field-recordings', 'Field Recordings Club',
   'Rain on tin roofs, city crossings, dawn choruses. Share what you heard and where.',
   'a1a1a1a1-0000-4000-8000-000000000002', 'public', now() - interval '3 days');

with room as (
  insert into public.rooms (id, slug, name, description, owner_id, visibility, created_at)
  values ('b2b2b2b2-0000-4000-8000-000000000003', 'backstage', 'Backstage',
          'For holders of the Cuepoint Backstage Pass: early listens and rehearsal tapes.',
          'a1a1a1a1-0000-4000-8000-000000000001', 'gated', now() - interval '2 days')
  returning id
)
insert into public.room_gates (room_id, chain_id, contract_address, standard, token_id, min_balance)
select id, 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721', null, '1' from room;

with room as (
  insert into public.rooms (id, slug, name, description, owner_id, visibility, created_at)
  values ('b2b2b2b2-0000-4000-8000-000000000004', 'cue-holders', 'CUE Holders Circle',
          'Listening sessions for people holding at least 100 CUE.',
          'a1a1a1a1-0000-4000-8000-000000000002', 'gated', now() - interval '1 day')
  returning id
)
-- 100 CUE in smallest units (18 decimals)
insert into public.room_gates (room_id, chain_id, contract_address, standard, token_id, min_balance)
select id, 31337, '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9', 'erc20', null, '100000000000000000000' from room;

-- grace joins ada's open room; ada joins grace's, and holds enough CUE for grace's gated one.
insert into public.memberships (room_id, user_id, role) values
  ('b2b2b2b2-0000-4000-8000-000000000001', 'a1a1a1a1-0000-4000-8000-000000000002', 'member'),
  ('b2b2b2b2-0000-4000-8000-000000000002', 'a1a1a1a1-0000-4000-8000-000000000001', 'moderator');
insert into public.memberships (room_id, user_id, role, verified_wallet, verified_at) values
  ('b2b2b2b2-0000-4000-8000-000000000004', 'a1a1a1a1-0000-4000-8000-000000000001', 'member',
   '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', now());

-- Posts to look at and talk about: links with the details the embed function would have stored
-- (their thumbnails and players load from the providers, so they need the internet). The Vimeo
-- video's length came with its details, so its comments' markers show before it plays; YouTube's
-- does not, so that post's markers appear once its player has loaded.
insert into public.posts (id, room_id, author_id, title, body, media_kind, media_url, embed, duration_seconds, created_at, updated_at) values
  ('c3c3c3c3-0000-4000-8000-000000000001', 'b2b2b2b2-0000-4000-8000-000000000001', 'a1a1a1a1-0000-4000-8000-000000000001',
   'The new player, frame by frame', 'Watch how the controls get out of the way. Comment on the moment you notice it.',
   'embed', 'https://vimeo.com/76979871',
   '{"provider":"vimeo","provider_name":"Vimeo","title":"The New Vimeo Player (You Know, For Videos)","author":"Vimeo","thumbnail_url":"https://i.vimeocdn.com/video/452001751-8216e0571c251a09d7a8387550942d89f7f86f6398f8ed886e639b0dd50d3c90-d_640","duration":62,"width":640,"height":360}',
   62, now() - interval '3 hours', now() - interval '3 hours'),
  ('c3c3c3c3-0000-4000-8000-000000000002', 'b2b2b2b2-0000-4000-8000-000000000001', 'a1a1a1a1-0000-4000-8000-000000000002',
   'Where it all started', '', 'embed', 'https://www.youtube.com/watch?v=jNQXAC9IVRw',
   '{"provider":"youtube","provider_name":"YouTube","title":"Me at the zoo","author":"jawed","thumbnail_url":"https://i.ytimg.com/vi/jNQXAC9IVRw/hqdefault.jpg","duration":null,"width":200,"height":150}',
   null, now() - interval '1 hour', now() - interval '1 hour'),
  ('c3c3c3c3-0000-4000-8000-000000000003', 'b2b2b2b2-0000-4000-8000-000000000002', 'a1a1a1a1-0000-4000-8000-000000000002',
   'Flickermood', 'Not a field recording, but the rain at 0:40 could be.', 'embed', 'https://soundcloud.com/forss/flickermood',
   '{"provider":"soundcloud","provider_name":"SoundCloud","title":"Flickermood by Forss","author":"Forss","thumbnail_url":"https://i1.sndcdn.com/artworks-000067273316-smsiqx-t500x500.jpg","duration":null,"width":null,"height":400}',
   null, now() - interval '2 hours', now() - interval '2 hours');

insert into public.moments (id, post_id, room_id, author_id, at_seconds, body, created_at, updated_at) values
  ('d4d4d4d4-0000-4000-8000-000000000001', 'c3c3c3c3-0000-4000-8000-000000000001', 'b2b2b2b2-0000-4000-8000-000000000001',
   'a1a1a1a1-0000-4000-8000-000000000001', 4, 'The controls fade in right here.', now() - interval '170 minutes', now() - interval '170 minutes'),
  ('d4d4d4d4-0000-4000-8000-000000000002', 'c3c3c3c3-0000-4000-8000-000000000001', 'b2b2b2b2-0000-4000-8000-000000000001',
   'a1a1a1a1-0000-4000-8000-000000000002', 31, 'This transition is so smooth.', now() - interval '150 minutes', now() - interval '150 minutes'),
  ('d4d4d4d4-0000-4000-8000-000000000003', 'c3c3c3c3-0000-4000-8000-000000000001', 'b2b2b2b2-0000-4000-8000-000000000001',
   'a1a1a1a1-0000-4000-8000-000000000002', null, 'Watched it three times.', now() - interval '140 minutes', now() - interval '140 minutes'),
  ('d4d4d4d4-0000-4000-8000-000000000004', 'c3c3c3c3-0000-4000-8000-000000000002', 'b2b2b2b2-0000-4000-8000-000000000001',
   'a1a1a1a1-0000-4000-8000-000000000001', 5, 'The elephants enter.', now() - interval '50 minutes', now() - interval '50 minutes');

insert into public.reactions (moment_id, user_id, emoji) values
  ('d4d4d4d4-0000-4000-8000-000000000002', 'a1a1a1a1-0000-4000-8000-000000000001', '🔥'),
  ('d4d4d4d4-0000-4000-8000-000000000001', 'a1a1a1a1-0000-4000-8000-000000000002', '👏');
