-- Nothing deleted stays readable on the room's channel.
--
-- Each change to posts, moments and reactions is a row in realtime.messages (that is how a
-- broadcast from the database travels), kept for days, and Supabase Realtime replays recent
-- messages to whoever may join the channel. The payload carried the whole old row on UPDATE and
-- DELETE, so a deleted comment's words, or the first version of an edited one, stayed there for any
-- member to fetch. Now:
-- - `old_record` carries only what a page needs to find the row (its id and the ids it belongs to),
--   never its words; `record` is the row as it now is, as before;
-- - an edit or a delete of a post or comment also removes the earlier messages that carried its
--   words (its insert and earlier edits) from the channel's recent messages.
-- The message shape is otherwise realtime.broadcast_changes' own: {id, schema, table, operation,
-- record, old_record}.

create function private.row_identifiers(changed jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
  from jsonb_each(changed)
  where key in ('id', 'room_id', 'post_id', 'moment_id', 'parent_id', 'session_id', 'author_id', 'user_id');
$$;

comment on function private.row_identifiers(jsonb) is 'A row''s id and the ids it belongs to, none of its words: what a broadcast''s old_record carries.';
revoke all on function private.row_identifiers(jsonb) from public, anon, authenticated;

create or replace function private.broadcast_room_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
  room_topic text := 'room:' || target_room;
begin
  if tg_op in ('UPDATE', 'DELETE') and tg_table_name in ('posts', 'moments') then
    -- Messages about the row are no older than the row (inserted_at is a plain timestamp in the
    -- session's time zone, as the default now() wrote it): the partitions' index bounds the scan.
    delete from realtime.messages m
      where m.inserted_at >= old.created_at::timestamp - interval '1 minute'
        and m.topic = room_topic
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
