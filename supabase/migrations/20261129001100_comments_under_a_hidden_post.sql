-- A hidden post takes its comments with it: while reports hide a post, the comments under it are
-- read only by the post's author, each comment's own author and the room's owner and moderators —
-- over REST (the moments read rule) and the live channel (a comment made or edited under a hidden
-- post is not sent to the room). Dismissing the reports shows the post and its comments again.

-- Whether a post is hidden from the caller: hidden by reports, and not theirs. Security definer, as
-- the posts read rule would hide the hidden post itself from the very check.
create function private.post_hidden_from_caller(target_post uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.posts p
    where p.id = target_post and p.hidden_at is not null and p.author_id is distinct from (select auth.uid())
  );
$$;

comment on function private.post_hidden_from_caller(uuid) is 'Whether the post is hidden by reports and not the caller''s: its comments are then not theirs to read.';
revoke all on function private.post_hidden_from_caller(uuid) from public;
grant execute on function private.post_hidden_from_caller(uuid) to anon, authenticated;

drop policy "Moments are readable by whoever may read the room; hidden or held ones by their author and moderators" on public.moments;
create policy "Moments are readable by whoever may read the room; hidden or held ones by their author and moderators"
  on public.moments for select
  to anon, authenticated
  using (
    (moments.room_id in (select private.my_room_ids())
     or exists (select 1 from public.rooms r where r.id = moments.room_id and r.visibility = 'public'))
    and (((moments.hidden_at is null and moments.held_at is null) and not private.post_hidden_from_caller(moments.post_id))
         or moments.author_id = (select auth.uid())
         or (select private.moderates_room(moments.room_id)))
  );

-- The room's broadcasts, as before, with comments under a hidden post kept off the channel.
create or replace function private.broadcast_room_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
  room_topic text := private.current_room_topic('room', target_room);
  now_row jsonb := case when tg_op = 'DELETE' then null else to_jsonb(new) end;
  was_withheld boolean := tg_op <> 'INSERT' and tg_table_name in ('posts', 'moments') and private.is_withheld(to_jsonb(old));
  now_withheld boolean := tg_op <> 'DELETE' and tg_table_name in ('posts', 'moments') and private.is_withheld(now_row);
  operation text := tg_op;
  -- A comment made or edited under a hidden post: not for the room (the post's readers are its
  -- author and the moderators, who read it from the page).
  under_hidden_post boolean := tg_op <> 'DELETE' and tg_table_name = 'moments'
    and exists (select 1 from public.posts p where p.id = (now_row ->> 'post_id')::uuid and p.hidden_at is not null);
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
  if under_hidden_post and not now_withheld then
    return null;
  end if;
  -- Hidden or held: the room's readers hear nothing of it (it was never theirs, or it leaves them as
  -- a delete); shown again, it arrives as new.
  if now_withheld then
    if tg_op = 'INSERT' and tg_table_name = 'moments' then
      perform private.signal_moderators(target_room, (now_row ->> 'post_id')::uuid, (now_row ->> 'id')::uuid, 'held');
    end if;
    if was_withheld or tg_op = 'INSERT' then
      return null;
    end if;
    operation := 'DELETE';
    now_row := null;
  elsif was_withheld then
    if tg_op = 'DELETE' then
      return null;
    end if;
    operation := 'INSERT';
  end if;
  perform realtime.send(
    jsonb_build_object(
      'schema', tg_table_schema,
      'table', tg_table_name,
      'operation', operation,
      'record', now_row,
      'old_record', case when tg_op = 'INSERT' then null else private.row_identifiers(to_jsonb(old)) end
    ),
    tg_table_name,
    room_topic,
    true
  );
  return null;
end;
$$;
