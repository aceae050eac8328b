-- An uploaded file's waveform: its loudness along its length, drawn as the post's seek bar.
--
-- Up to 1000 peaks, each the loudest sample of its stretch of the file as a share of full scale,
-- 0–255. The browser computes them while the file uploads and the author writes them with the post
-- (insert only: nobody edits them afterwards); a file uploaded before waveforms existed, or whose
-- peaks the browser could not compute, gets them from the server's backfill (the service role).
-- About 2 KB a post: read by the post page only, and never sent with the room's live changes.

alter table public.posts add column waveform smallint[];

alter table public.posts add constraint posts_waveform_shape check (
  waveform is null or (
    media_kind = 'upload'
    and array_ndims(waveform) = 1
    and array_lower(waveform, 1) = 1
    and cardinality(waveform) between 1 and 1000
    and array_position(waveform, null) is null
    and 0 <= all (waveform)
    and 255 >= all (waveform)
  )
);

comment on column public.posts.waveform is
  'An uploaded file''s peaks along its length (1–1000 values, 0–255 of full scale), drawn as its seek bar; written with the post or by the backfill.';
comment on constraint posts_waveform_shape on public.posts is
  'A waveform is 1 to 1000 peaks from 0 to 255, on an uploaded file only';

grant insert (waveform) on public.posts to authenticated;

-- The backfill adds a waveform to an old post: that is not an edit of the post.
create function private.waveform_keeps_edit_time() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- (search_document is left out: a stored generated column is not yet computed in a before trigger.)
  if (to_jsonb(new) - 'waveform' - 'updated_at' - 'search_document') = (to_jsonb(old) - 'waveform' - 'updated_at' - 'search_document') then
    new.updated_at := old.updated_at;
  end if;
  return new;
end;
$$;
revoke all on function private.waveform_keeps_edit_time() from public;

create trigger posts_waveform_keeps_edit_time before update of waveform on public.posts
  for each row execute function private.waveform_keeps_edit_time();

-- The room's broadcasts, as before, without the waveform (the live feed never draws it).
create or replace function private.broadcast_room_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
  room_topic text := private.current_room_topic('room', target_room);
  now_row jsonb := case when tg_op = 'DELETE' then null else to_jsonb(new) - 'search_document' - 'waveform' end;
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
