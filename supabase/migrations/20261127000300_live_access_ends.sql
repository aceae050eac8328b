-- Live access ends when access ends.
--
-- Realtime decides who may listen on a channel when a socket joins it (and when the client itself
-- sends a new token); it does not look again while the socket stays. So an anonymous socket that
-- joined a public room's channel kept receiving every new post and comment after the owner gated
-- the room — for as long as the public key is valid — and a member removed from a gated room kept
-- receiving its messages until their token expired. The only eviction was the app's own client
-- leaving politely.
--
-- Now each room has an access epoch, bumped whenever who may read it narrows: the room becomes
-- gated, or a membership of a gated room ends (removed, left, lapsed, its wallet unlinked). Its
-- channels' topics carry the epoch — `room:{id}` and `session:{id}` at epoch 0, then
-- `room:{id}:{epoch}` and `session:{id}:{epoch}` — the database broadcasts only to the current
-- ones, and the policies admit only the current ones. A socket on an older topic hears nothing
-- more, whatever its client does; the database tells it once (event `access`, payload
-- `{"epoch": n}`) so that an honest client joins the new topic, where the policies decide again.
-- This needs no change to Supabase Realtime: topics, policies and realtime.send are all it uses.
-- Widening access (a gated room made public, someone joining) leaves the epoch alone.

alter table public.rooms add column access_epoch integer not null default 0;
alter table public.rooms add constraint rooms_access_epoch_not_negative check (access_epoch >= 0);

comment on column public.rooms.access_epoch is 'Bumped when who may read the room narrows; the room''s channels are `room:{id}` / `session:{id}` at 0, then suffixed `:{epoch}`.';

-- The topic of a room's channel (`room` or `session`) at an epoch.
create function private.room_topic(kind text, room uuid, epoch integer)
returns text
language sql
immutable
set search_path = ''
as $$
  select kind || ':' || room::text || case when epoch > 0 then ':' || epoch::text else '' end;
$$;

-- The topic the database broadcasts a room's changes to now.
create function private.current_room_topic(kind text, room uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select private.room_topic(kind, r.id, r.access_epoch) from public.rooms r where r.id = room;
$$;

-- The room a topic names when it names the room's current epoch; null for any other topic (an
-- older epoch, no such room, or not a `kind:` topic at all).
create function private.room_of_current_topic(kind text, topic text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select r.id
  from (select regexp_match(topic, '^' || kind || ':([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?::([1-9][0-9]{0,8}))?$') as m) parsed
  join public.rooms r on r.id = (parsed.m)[1]::uuid
  where parsed.m is not null and r.access_epoch = coalesce((parsed.m)[2]::integer, 0);
$$;

revoke all on function private.room_topic(text, uuid, integer) from public;
revoke all on function private.current_room_topic(text, uuid) from public;
revoke all on function private.room_of_current_topic(text, text) from public;
grant execute on function private.room_topic(text, uuid, integer) to anon, authenticated, service_role;
grant execute on function private.current_room_topic(text, uuid) to service_role;
grant execute on function private.room_of_current_topic(text, text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Who may join: only the current epoch's topics
-- ---------------------------------------------------------------------------------------------
drop policy "Room channels are received by those who may read the room" on realtime.messages;
create policy "Room channels are received by those who may read the room"
  on realtime.messages for select
  to anon, authenticated
  using (
    (select realtime.topic()) like 'room:%'
    and (select private.can_read_room_content((select private.room_of_current_topic('room', (select realtime.topic())))))
  );

drop policy "Members share their presence in the room's channel" on realtime.messages;
create policy "Members share their presence in the room's channel"
  on realtime.messages for insert
  to authenticated
  with check (
    extension = 'presence'
    and (select realtime.topic()) like 'room:%'
    and (select private.room_role((select private.room_of_current_topic('room', (select realtime.topic()))))) is not null
  );

drop policy "Session channels are received by the room's members" on realtime.messages;
create policy "Session channels are received by the room's members"
  on realtime.messages for select
  to authenticated
  using (
    (select realtime.topic()) like 'session:%'
    and (select private.room_role((select private.room_of_current_topic('session', (select realtime.topic()))))) is not null
  );

drop policy "Members share their presence in the session's channel" on realtime.messages;
create policy "Members share their presence in the session's channel"
  on realtime.messages for insert
  to authenticated
  with check (
    extension = 'presence'
    and (select realtime.topic()) like 'session:%'
    and (select private.room_role((select private.room_of_current_topic('session', (select realtime.topic()))))) is not null
  );

-- ---------------------------------------------------------------------------------------------
-- What the database sends: to the current epoch's topics only
-- ---------------------------------------------------------------------------------------------
create or replace function private.broadcast_room_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
  room_topic text := private.current_room_topic('room', target_room);
begin
  -- A room deleted with everything in it: nobody is left to tell.
  if room_topic is null then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and tg_table_name in ('posts', 'moments') then
    -- Messages about the row are no older than the row (inserted_at is a plain timestamp in the
    -- session's time zone, as the default now() wrote it): the partitions' index bounds the scan.
    -- Any epoch's: the words must not stay under an older topic either.
    delete from realtime.messages m
      where m.inserted_at >= old.created_at::timestamp - interval '1 minute'
        and (m.topic = 'room:' || target_room::text or m.topic like 'room:' || target_room::text || ':%')
        and m.extension = 'broadcast'
        and m.event = tg_table_name
        and m.payload -> 'record' ->> 'id' = old.id::text;
  end if;
  perform realtime.send(
    jsonb_build_object(
      'schema', tg_table_schema,
      'table', tg_table_name,
      'operation', tg_op,
      'record', case when tg_op = 'DELETE' then null else to_jsonb(new) end,
      'old_record', case when tg_op = 'INSERT' then null else private.row_identifiers(to_jsonb(old)) end
    ),
    tg_table_name,
    room_topic,
    true
  );
  return null;
end;
$$;

create or replace function private.broadcast_membership_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.memberships%rowtype := case when tg_op = 'DELETE' then old else new end;
  room_topic text := private.current_room_topic('room', changed.room_id);
begin
  if room_topic is null then
    return null;
  end if;
  perform realtime.send(
    jsonb_build_object(
      'operation', tg_op,
      'room_id', changed.room_id,
      'user_id', changed.user_id,
      'role', case when tg_op = 'DELETE' then null else changed.role end
    ),
    'memberships',
    room_topic,
    true
  );
  return null;
end;
$$;

create or replace function private.broadcast_session_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  session_topic text := private.current_room_topic('session', new.room_id);
begin
  if session_topic is not null then
    perform realtime.send(to_jsonb(new), 'session', session_topic, true);
  end if;
  return null;
end;
$$;

create or replace function private.broadcast_queue_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  session_topic text := private.current_room_topic('session', case when tg_op = 'DELETE' then old.room_id else new.room_id end);
begin
  if session_topic is not null then
    perform realtime.broadcast_changes(session_topic, 'queue', tg_op, tg_table_name, tg_table_schema, new, old);
  end if;
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- When who may read narrows, the epoch moves on
-- ---------------------------------------------------------------------------------------------
-- A public room becoming gated (the owner's update).
create function private.narrow_access_when_gated()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.access_epoch := old.access_epoch + 1;
  return new;
end;
$$;

create trigger rooms_narrow_access_when_gated
  before update of visibility on public.rooms
  for each row when (old.visibility = 'public' and new.visibility = 'gated')
  execute function private.narrow_access_when_gated();

-- A membership of a gated room ending: counted out and moved on in one update of the room (after
-- the membership's own broadcast, which still reaches the old topic: the person's page learns why).
create or replace function private.count_room_members()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.rooms set member_count = member_count + 1 where id = new.room_id;
  elsif tg_op = 'DELETE' then
    update public.rooms
      set member_count = greatest(member_count - 1, 0),
          access_epoch = access_epoch + case when visibility = 'gated' then 1 else 0 end
      where id = old.room_id;
  end if;
  return null;
end;
$$;

-- Sockets on the old topics are told once where the room's channels are now; the policies decide
-- whether they may follow.
create function private.announce_access_epoch()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform realtime.send(jsonb_build_object('epoch', new.access_epoch), 'access', private.room_topic('room', new.id, old.access_epoch), true);
  perform realtime.send(jsonb_build_object('epoch', new.access_epoch), 'access', private.room_topic('session', new.id, old.access_epoch), true);
  return null;
end;
$$;

revoke all on function private.narrow_access_when_gated() from public, anon, authenticated;
revoke all on function private.announce_access_epoch() from public, anon, authenticated;

-- Not `update of access_epoch`: the gating update sets only `visibility` (a trigger moves the epoch).
create trigger rooms_announce_access_epoch
  after update on public.rooms
  for each row when (old.access_epoch is distinct from new.access_epoch)
  execute function private.announce_access_epoch();
