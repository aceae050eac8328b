-- Ranking a common word was the slow part of a search: ts_rank needs each matching row's words,
-- and with the words indexed only as expressions every match's text was parsed again to rank it
-- (a word in 5% of 100,000 comments: 5,000 parses, ~18 ms of a ~27 ms query). The words are now
-- stored with the row, as generated columns that the GIN indexes cover, so ranking reads them.
--
-- The stored words stay out of what the app receives:
-- * the room's live channel sends the row without them (private.broadcast_room_change below,
--   otherwise as before);
-- * the app reads posts and comments by naming their columns, never `*`;
-- * public.search_content returns the same columns as before.
-- Search results, order, accent folding, prefix matching and who may find what are unchanged.

alter table public.posts
  add column search_document tsvector generated always as (
    setweight(to_tsvector('public.cuepoint_search'::regconfig, title), 'A')
    || setweight(to_tsvector('public.cuepoint_search'::regconfig, body), 'B')) stored;
alter table public.moments
  add column search_document tsvector generated always as (
    setweight(to_tsvector('public.cuepoint_search'::regconfig, body), 'B')) stored;

comment on column public.posts.search_document is
  'The post''s words for search (title weighted A, text B; public.cuepoint_search). For private.search_hits only: left out of broadcasts, not read by the app.';
comment on column public.moments.search_document is
  'The comment''s words for search (weighted B; public.cuepoint_search). For private.search_hits only: left out of broadcasts, not read by the app.';

drop index public.posts_search_idx;
drop index public.moments_search_idx;
create index posts_search_idx on public.posts using gin (search_document);
create index moments_search_idx on public.moments using gin (search_document) where deleted_at is null;

comment on index public.posts_search_idx is 'Posts by the words of their title and text (public.cuepoint_search).';
comment on index public.moments_search_idx is 'Comments by their words (public.cuepoint_search); deleted ones are left out.';

-- As before, finding and ranking by the stored words.
create or replace function private.search_hits(search tsquery, max_rows int, before_rank real, before_id uuid)
returns table (kind text, id uuid, rank real)
language sql
stable
security definer
set search_path = ''
as $$
  with readable as (
    select r.id from public.rooms r where r.visibility = 'public'
    union
    select private.my_room_ids()
  ),
  hits as (
    select 'post'::text as kind, p.id, ts_rank(p.search_document, search, 1) as rank
    from public.posts p
    where p.search_document @@ search
      and p.hidden_at is null
      and p.room_id in (select readable.id from readable)
    union all
    select 'comment'::text, m.id, ts_rank(m.search_document, search, 1)
    from public.moments m
    join public.posts p on p.id = m.post_id and p.hidden_at is null
    where m.search_document @@ search
      and m.deleted_at is null
      and m.hidden_at is null
      and m.held_at is null
      and m.room_id in (select readable.id from readable)
  )
  select hits.kind, hits.id, hits.rank
  from hits
  where before_rank is null or (hits.rank, hits.id) < (before_rank, coalesce(before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))
  order by hits.rank desc, hits.id desc
  limit least(greatest(coalesce(max_rows, 0), 0), 101);
$$;

-- The room's broadcasts, as before, with the stored search words left out of the row sent.
create or replace function private.broadcast_room_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
  room_topic text := private.current_room_topic('room', target_room);
  now_row jsonb := case when tg_op = 'DELETE' then null else to_jsonb(new) - 'search_document' end;
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
