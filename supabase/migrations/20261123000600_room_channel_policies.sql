-- Who may use a room's Realtime channel, `room:{room id}` (a private channel: Realtime checks these
-- policies on realtime.messages once when a socket joins, and again when it sends a new token).
--
-- Receiving (broadcasts and presence): anyone, signed in or not, on a public room's topic; only
-- members on a gated room's topic. Sending presence: members only. Sending broadcasts: nobody —
-- a room's broadcasts come from the database (triggers calling realtime.broadcast_changes in
-- SECURITY DEFINER functions), so a client's broadcast on a room topic is refused.

-- The room a topic names, or null when it names none (not `room:` followed by a uuid).
create function private.room_id_of_topic(topic text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when topic ~ '^room:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then substr(topic, 6)::uuid
  end;
$$;

revoke all on function private.room_id_of_topic(text) from public;
grant execute on function private.room_id_of_topic(text) to anon, authenticated, service_role;

-- Each policy asks about the channel's topic (realtime.topic()), not about the row, so every call
-- is wrapped in a select: evaluated once per check, whatever the number of rows.
create policy "Room channels are received by those who may read the room"
  on realtime.messages for select
  to anon, authenticated
  using (
    (select realtime.topic()) like 'room:%'
    and (select private.can_read_room_content(private.room_id_of_topic((select realtime.topic()))))
  );

create policy "Members share their presence in the room's channel"
  on realtime.messages for insert
  to authenticated
  with check (
    extension = 'presence'
    and (select realtime.topic()) like 'room:%'
    and (select private.room_role(private.room_id_of_topic((select realtime.topic())))) is not null
  );
