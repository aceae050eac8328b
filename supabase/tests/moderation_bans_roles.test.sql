-- Every role × every moderation function of bans, timeouts and slow mode, and who reads bans and
-- timeouts: anon, an outsider, a member, a banned person, a timed-out member, a moderator, the owner
-- and the service role. Each try runs in its own subtransaction that is then rolled back, so every
-- role meets the same room. Outcomes: 'ok', or the SQLSTATE of the refusal.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(65);

-- o owner (…a), m moderator (…b), a member (…c), x banned (…d), t timed-out member (…e), n outsider
-- (…f); targets: b member to ban / time out (…1), y already banned (…2), z already timed out (…3)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
select ('49000000-0000-4000-8000-00000000000' || k)::uuid, 'authenticated', 'authenticated', 'roles-' || k || '@example.test', json_build_object('username', 'modroles_' || k), now(), now()
from unnest(array['a', 'b', 'c', 'd', 'e', 'f', '1', '2', '3']) k;
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('49100000-0000-4000-8000-000000000001', 'mod-roles', 'Roles', '49000000-0000-4000-8000-00000000000a', 'public');
insert into public.memberships (room_id, user_id, role) values
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000b', 'moderator'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000c', 'member'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000e', 'member'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000001', 'member'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000003', 'member');
insert into public.bans (room_id, user_id, banned_by, reason) values
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000d', '49000000-0000-4000-8000-00000000000a', 'spam'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000002', '49000000-0000-4000-8000-00000000000a', 'spam');
insert into public.timeouts (room_id, user_id, by_user_id, expires_at) values
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-00000000000e', '49000000-0000-4000-8000-00000000000a', now() + interval '1 hour'),
  ('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000003', '49000000-0000-4000-8000-00000000000a', now() + interval '1 hour');

create temporary table people (who text primary key, role_name text, id uuid, ord int);
insert into people values
  ('anon', 'anon', null, 1),
  ('outsider', 'authenticated', '49000000-0000-4000-8000-00000000000f', 2),
  ('member', 'authenticated', '49000000-0000-4000-8000-00000000000c', 3),
  ('banned person', 'authenticated', '49000000-0000-4000-8000-00000000000d', 4),
  ('timed-out member', 'authenticated', '49000000-0000-4000-8000-00000000000e', 5),
  ('moderator', 'authenticated', '49000000-0000-4000-8000-00000000000b', 6),
  ('owner', 'authenticated', '49000000-0000-4000-8000-00000000000a', 7),
  ('service role', 'service_role', null, 8);
grant select on people to anon, authenticated, service_role;

-- The outcome of one statement as one role, undone whatever it did.
create function pg_temp.outcome(role_name text, person uuid, statement text) returns text
language plpgsql as $$
declare
  state text;
begin
  begin
    perform pg_temp.act_as(role_name, person);
    execute statement;
    raise exception 'undo' using errcode = 'ZZ001';
  exception when others then
    get stacked diagnostics state = returned_sqlstate;
  end;
  perform pg_temp.act_as_superuser();
  return case when state = 'ZZ001' then 'ok' else state end;
end $$;

create temporary table actions (action text primary key, statement text, allowed text[]);
insert into actions values
  ('ban a member', $$select public.ban_member('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000001', 'spam')$$, array['moderator', 'owner']),
  ('lift a ban', $$select public.unban_member('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000002')$$, array['moderator', 'owner']),
  ('time out a member', $$select public.time_out_member('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000001', 30, 'flood')$$, array['moderator', 'owner']),
  ('lift a timeout', $$select public.lift_timeout('49100000-0000-4000-8000-000000000001', '49000000-0000-4000-8000-000000000003')$$, array['moderator', 'owner']),
  ('set slow mode', $$select public.set_slow_mode('49100000-0000-4000-8000-000000000001', 10)$$, array['moderator', 'owner']),
  ('set the report threshold', $$select public.set_report_threshold('49100000-0000-4000-8000-000000000001', 5)$$, array['owner']);

select is(
  pg_temp.outcome(p.role_name, p.id, a.statement),
  case when p.who = any (a.allowed) then 'ok' else '42501' end,
  format('%s: %s', p.who, a.action) || case when p.who = any (a.allowed) then ' — allowed' else ' — refused' end)
from actions a cross join people p
order by a.action, p.ord;

-- Nothing the tries did stayed
select is((select count(*)::int from public.moderation_log where room_id = '49100000-0000-4000-8000-000000000001'), 0, 'every try was undone');

-- Who reads bans and timeouts: how many rows each sees (null: refused outright)
create function pg_temp.seen(role_name text, person uuid, tbl text) returns int
language plpgsql as $$
declare
  n int;
begin
  perform pg_temp.act_as(role_name, person);
  begin
    execute format('select count(*)::int from public.%I where room_id = %L', tbl, '49100000-0000-4000-8000-000000000001') into n;
  exception when insufficient_privilege then
    n := null;
  end;
  perform pg_temp.act_as_superuser();
  return n;
end $$;

select is(pg_temp.seen(p.role_name, p.id, 'bans'),
  case p.who when 'anon' then null when 'banned person' then 1 when 'moderator' then 2 when 'owner' then 2 when 'service role' then 2 else 0 end,
  format('%s reads %s', p.who,
    case p.who when 'anon' then 'no bans (no grant)' when 'banned person' then 'their own ban' when 'moderator' then 'the room''s bans'
      when 'owner' then 'the room''s bans' when 'service role' then 'every ban' else 'no bans' end))
from people p order by p.ord;

select is(pg_temp.seen(p.role_name, p.id, 'timeouts'),
  case p.who when 'anon' then null when 'timed-out member' then 1 when 'moderator' then 2 when 'owner' then 2 when 'service role' then 2 else 0 end,
  format('%s reads %s', p.who,
    case p.who when 'anon' then 'no timeouts (no grant)' when 'timed-out member' then 'their own timeout' when 'moderator' then 'the room''s timeouts'
      when 'owner' then 'the room''s timeouts' when 'service role' then 'every timeout' else 'no timeouts' end))
from people p order by p.ord;

select * from finish();
rollback;
