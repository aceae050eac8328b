-- notification_settings and notification_mutes: every role × select / insert / update / delete.
-- People: anon, a newcomer with no settings row and no mutes (…c), the person whose rows the
-- statements name (…a), someone else with rows of their own (…b), and the service role. Each try
-- runs in its own subtransaction that is then rolled back, so every role meets the same rows.
-- Outcomes: 'ok <rows>' (rows read or changed; RLS hides refused rows from UPDATE and DELETE), or
-- the SQLSTATE of the refusal.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(70);

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
select ('5a000000-0000-4000-8000-00000000000' || k)::uuid, 'authenticated', 'authenticated', 'nset-' || k || '@example.test',
       json_build_object('username', 'nset_' || k), now(), now()
from unnest(array['a', 'b', 'c']) k;
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('5a100000-0000-4000-8000-000000000001', 'nset-one', 'One', '5a000000-0000-4000-8000-00000000000b', 'public'),
  ('5a100000-0000-4000-8000-000000000002', 'nset-two', 'Two', '5a000000-0000-4000-8000-00000000000b', 'public');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('5a200000-0000-4000-8000-000000000001', '5a100000-0000-4000-8000-000000000001', '5a000000-0000-4000-8000-00000000000b', 'P1', 'embed', 'https://vimeo.com/1'),
  ('5a200000-0000-4000-8000-000000000002', '5a100000-0000-4000-8000-000000000001', '5a000000-0000-4000-8000-00000000000b', 'P2', 'embed', 'https://vimeo.com/2');
insert into public.notification_settings (user_id, muted_kinds, email_kinds, hold_strangers) values
  ('5a000000-0000-4000-8000-00000000000a', '{reaction}', '{mention}', true),
  ('5a000000-0000-4000-8000-00000000000b', '{}', '{}', false);
insert into public.notification_mutes (id, user_id, room_id, post_id) values
  ('5a300000-0000-4000-8000-00000000000a', '5a000000-0000-4000-8000-00000000000a', '5a100000-0000-4000-8000-000000000001', null),
  ('5a300000-0000-4000-8000-00000000000b', '5a000000-0000-4000-8000-00000000000b', null, '5a200000-0000-4000-8000-000000000001');

create temporary table people (who text primary key, role_name text, id uuid, ord int);
insert into people values
  ('anon', 'anon', null, 1),
  ('newcomer', 'authenticated', '5a000000-0000-4000-8000-00000000000c', 2),
  ('the person', 'authenticated', '5a000000-0000-4000-8000-00000000000a', 3),
  ('someone else', 'authenticated', '5a000000-0000-4000-8000-00000000000b', 4),
  ('service role', 'service_role', null, 5);
grant select on people to anon, authenticated, service_role;

-- The outcome of one statement as one role, undone whatever it did.
create function pg_temp.outcome(role_name text, person uuid, statement text) returns text
language plpgsql as $$
declare
  state text;
  n int;
begin
  begin
    perform pg_temp.act_as(role_name, person);
    execute statement;
    get diagnostics n = row_count;
    raise exception 'undo' using errcode = 'ZZ001';
  exception when others then
    get stacked diagnostics state = returned_sqlstate;
  end;
  perform pg_temp.act_as_superuser();
  return case when state = 'ZZ001' then 'ok ' || n else state end;
end $$;

-- Each statement with its outcome for anon, the newcomer, the person, someone else and the service role.
create temporary table tries (ord int primary key, what text, statement text, expected text[]);
insert into tries values
  -- notification_settings
  (1, 'settings: read the three people''s rows',
   $$select 1 from public.notification_settings where user_id in ('5a000000-0000-4000-8000-00000000000a', '5a000000-0000-4000-8000-00000000000b', '5a000000-0000-4000-8000-00000000000c')$$,
   array['42501', 'ok 0', 'ok 1', 'ok 1', 'ok 2']),
  (2, 'settings: make the newcomer''s row',
   $$insert into public.notification_settings (user_id, muted_kinds, email_kinds, hold_strangers) values ('5a000000-0000-4000-8000-00000000000c', '{reply}', '{mention}', false)$$,
   array['42501', 'ok 1', '42501', '42501', 'ok 1']),
  (3, 'settings: a row with a kind that does not exist',
   $$insert into public.notification_settings (user_id, muted_kinds) values ('5a000000-0000-4000-8000-00000000000c', '{everything}')$$,
   array['42501', '23514', '42501', '42501', '23514']),
  (4, 'settings: change the person''s kinds and strangers',
   $$update public.notification_settings set muted_kinds = '{}', email_kinds = '{reply}', hold_strangers = false where user_id = '5a000000-0000-4000-8000-00000000000a'$$,
   array['42501', 'ok 0', 'ok 1', 'ok 0', 'ok 1']),
  (5, 'settings: set the person''s last digest time',
   $$update public.notification_settings set last_digest_at = now() where user_id = '5a000000-0000-4000-8000-00000000000a'$$,
   array['42501', '42501', '42501', '42501', 'ok 1']),
  (6, 'settings: move the person''s row to the newcomer',
   $$update public.notification_settings set user_id = '5a000000-0000-4000-8000-00000000000c' where user_id = '5a000000-0000-4000-8000-00000000000a'$$,
   array['42501', '42501', '42501', '42501', 'ok 1']),
  (7, 'settings: delete the person''s row',
   $$delete from public.notification_settings where user_id = '5a000000-0000-4000-8000-00000000000a'$$,
   array['42501', '42501', '42501', '42501', 'ok 1']),
  -- notification_mutes
  (8, 'mutes: read the three people''s mutes',
   $$select 1 from public.notification_mutes where user_id in ('5a000000-0000-4000-8000-00000000000a', '5a000000-0000-4000-8000-00000000000b', '5a000000-0000-4000-8000-00000000000c')$$,
   array['42501', 'ok 0', 'ok 1', 'ok 1', 'ok 2']),
  (9, 'mutes: the person mutes a thread',
   $$insert into public.notification_mutes (user_id, post_id) values ('5a000000-0000-4000-8000-00000000000a', '5a200000-0000-4000-8000-000000000002')$$,
   array['42501', '42501', 'ok 1', '42501', 'ok 1']),
  (10, 'mutes: the person mutes the room they already muted',
   $$insert into public.notification_mutes (user_id, room_id) values ('5a000000-0000-4000-8000-00000000000a', '5a100000-0000-4000-8000-000000000001')$$,
   array['42501', '42501', '23505', '42501', '23505']),
  (11, 'mutes: a room and a post in one mute',
   $$insert into public.notification_mutes (user_id, room_id, post_id) values ('5a000000-0000-4000-8000-00000000000c', '5a100000-0000-4000-8000-000000000002', '5a200000-0000-4000-8000-000000000002')$$,
   array['42501', '23514', '42501', '42501', '23514']),
  (12, 'mutes: point the person''s mute at another room',
   $$update public.notification_mutes set room_id = '5a100000-0000-4000-8000-000000000002' where id = '5a300000-0000-4000-8000-00000000000a'$$,
   array['42501', '42501', '42501', '42501', 'ok 1']),
  (13, 'mutes: unmute the person''s room',
   $$delete from public.notification_mutes where id = '5a300000-0000-4000-8000-00000000000a'$$,
   array['42501', 'ok 0', 'ok 1', 'ok 0', 'ok 1']);

select is(
  pg_temp.outcome(p.role_name, p.id, t.statement),
  t.expected[p.ord],
  format('%s — %s: %s', t.what, p.who, t.expected[p.ord]))
from tries t cross join people p
order by t.ord, p.ord;

-- Nothing the tries did stayed
select is((select count(*)::int from public.notification_settings where user_id in ('5a000000-0000-4000-8000-00000000000a', '5a000000-0000-4000-8000-00000000000b', '5a000000-0000-4000-8000-00000000000c')), 2, 'the settings rows are as they were');
select is((select count(*)::int from public.notification_mutes where user_id in ('5a000000-0000-4000-8000-00000000000a', '5a000000-0000-4000-8000-00000000000b', '5a000000-0000-4000-8000-00000000000c')), 2, 'the mutes are as they were');

-- Kinds are kept in order, each once, however they were written
select pg_temp.act_as('authenticated', '5a000000-0000-4000-8000-00000000000c');
insert into public.notification_settings (user_id, muted_kinds, email_kinds) values ('5a000000-0000-4000-8000-00000000000c', '{reply,mention,reply}', '{moderation,moderation}');
select pg_temp.act_as_superuser();
select is((select muted_kinds from public.notification_settings where user_id = '5a000000-0000-4000-8000-00000000000c'), '{mention,reply}'::text[], 'a newcomer''s first row: muted kinds each once, sorted');
select is((select email_kinds from public.notification_settings where user_id = '5a000000-0000-4000-8000-00000000000c'), '{moderation}'::text[], 'email kinds each once');
select ok((select updated_at from public.notification_settings where user_id = '5a000000-0000-4000-8000-00000000000c') is not null, 'the row says when it changed');

select * from finish();
rollback;
