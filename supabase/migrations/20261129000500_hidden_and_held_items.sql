-- Hidden and held items: what others no longer see until a moderator looks.
--
-- posts.hidden_at and moments.hidden_at are set when enough members have reported the item (the
-- reports migration sets them); moments.held_at is set when a comment contains one of the room's
-- blocked terms (the blocked terms migration sets it). Neither column has a grant: only the
-- database writes them. While either is set, the item is readable only by its author and the
-- room's owner and moderators:
-- - over REST: the posts and moments read policies say so;
-- - over Storage: a hidden post's uploaded file is readable by the same people only;
-- - over the live channel: such an item is never sent on the room's topic (which every reader of
--   the room receives, whoever they are); an item that becomes hidden is sent as a delete (ids only)
--   and its earlier messages leave the channel, and one that is cleared arrives as an insert;
-- - the home's busiest moments leave them out.
-- The room's owner and moderators hear of each item that needs a look on the moderators' topic,
-- `moderation:{room id}` (with the room's access epoch, as the room's own topic): a signal with ids
-- only, upon which the queue is read again through moderation_queue, where the database decides.

alter table public.posts add column hidden_at timestamptz;
alter table public.moments
  add column hidden_at timestamptz,
  add column held_at timestamptz;

comment on column public.posts.hidden_at is 'When enough members'' reports hid the post pending review (null: shown).';
comment on column public.moments.hidden_at is 'When enough members'' reports hid the comment pending review (null: shown).';
comment on column public.moments.held_at is 'When the comment was held for review for containing a blocked term (null: shown).';

-- The moderation queue reads a room's held comments; hidden items are found through their reports.
create index moments_held_idx on public.moments (room_id, held_at desc) where held_at is not null;

-- Whether the caller may see what is hidden or held in the room: its owner and moderators.
create function private.moderates_room(target_room uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.room_role(target_room) in ('owner', 'moderator'), false);
$$;

comment on function private.moderates_room(uuid) is 'Whether the caller is the room''s owner or one of its moderators (their membership counting now).';
revoke all on function private.moderates_room(uuid) from public;
grant execute on function private.moderates_room(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Reads
-- ---------------------------------------------------------------------------------------------
drop policy "Posts are readable by whoever may read the room" on public.posts;
create policy "Posts are readable by whoever may read the room; hidden ones by their author and moderators"
  on public.posts for select
  to anon, authenticated
  using (
    (select private.can_read_room_content(posts.room_id))
    and (posts.hidden_at is null
         or posts.author_id = (select auth.uid())
         or (select private.moderates_room(posts.room_id)))
  );

drop policy "Moments are readable by whoever may read the room" on public.moments;
create policy "Moments are readable by whoever may read the room; hidden or held ones by their author and moderators"
  on public.moments for select
  to anon, authenticated
  using (
    (moments.room_id in (select private.my_room_ids())
     or exists (select 1 from public.rooms r where r.id = moments.room_id and r.visibility = 'public'))
    and ((moments.hidden_at is null and moments.held_at is null)
         or moments.author_id = (select auth.uid())
         or (select private.moderates_room(moments.room_id)))
  );

-- A hidden post's uploaded file: its author and the room's moderators only (the unique index on
-- posts.storage_path finds the post).
create function private.can_read_media(object_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.can_read_room_content(private.media_object_room(object_name))
    and not exists (
      select 1 from public.posts p
      where p.storage_path = object_name
        and p.hidden_at is not null
        and p.author_id is distinct from (select auth.uid())
        and not private.moderates_room(p.room_id)
    );
$$;

comment on function private.can_read_media(text) is 'Whether the caller may read a media file: they may read its room, and the post it belongs to is not hidden from them.';
revoke all on function private.can_read_media(text) from public;
grant execute on function private.can_read_media(text) to anon, authenticated, service_role;

drop policy "Media is readable by whoever may read the room" on storage.objects;
create policy "Media is readable by whoever may read the room, unless its post is hidden from them"
  on storage.objects for select
  to anon, authenticated
  using (bucket_id = 'media' and private.can_read_media(name));

-- Hiding, showing again, holding or approving is not an edit: the item keeps its edit time.
-- (Runs after *_touch_updated_at: triggers of one kind run in name order.)
create function private.withheld_keeps_edit_time()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (to_jsonb(new) - 'hidden_at' - 'held_at' - 'updated_at') = (to_jsonb(old) - 'hidden_at' - 'held_at' - 'updated_at') then
    new.updated_at := old.updated_at;
  end if;
  return new;
end;
$$;

create trigger posts_withheld_keeps_edit_time
  before update of hidden_at on public.posts
  for each row execute function private.withheld_keeps_edit_time();

create trigger moments_withheld_keeps_edit_time
  before update of hidden_at, held_at on public.moments
  for each row execute function private.withheld_keeps_edit_time();

-- ---------------------------------------------------------------------------------------------
-- The live channel
-- ---------------------------------------------------------------------------------------------
-- Whether a row (a post's or a comment's, as jsonb) is hidden or held.
create function private.is_withheld(item jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select item ->> 'hidden_at' is not null or item ->> 'held_at' is not null;
$$;

revoke all on function private.is_withheld(jsonb) from public, anon, authenticated;

-- A signal to the room's owner and moderators that an item needs (or no longer needs) a look:
-- ids only, never words.
create function private.signal_moderators(target_room uuid, target_post uuid, target_moment uuid, what text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  topic text := private.current_room_topic('moderation', target_room);
begin
  if topic is null then
    return;
  end if;
  perform realtime.send(
    jsonb_build_object('room_id', target_room, 'post_id', target_post, 'moment_id', target_moment, 'what', what),
    'queue',
    topic,
    true
  );
end;
$$;

comment on function private.signal_moderators(uuid, uuid, uuid, text) is 'Tells the room''s moderators'' topic that an item was reported, hidden, held or resolved (ids only).';
revoke all on function private.signal_moderators(uuid, uuid, uuid, text) from public, anon, authenticated;

create policy "Moderation channels are received by the room's owner and moderators"
  on realtime.messages for select
  to authenticated
  using (
    (select realtime.topic()) like 'moderation:%'
    and (select private.moderates_room((select private.room_of_current_topic('moderation', (select realtime.topic())))))
  );

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

-- ---------------------------------------------------------------------------------------------
-- The home's busiest moments: hidden and held comments, and hidden posts, are not shown
-- ---------------------------------------------------------------------------------------------
create or replace function public.top_moments(max_moments integer default 6)
returns table (
  post_id uuid,
  post_title text,
  room_slug text,
  room_name text,
  at_seconds integer,
  comments integer,
  sample_body text,
  sample_author text,
  last_at timestamptz
)
language sql
stable
security invoker
set search_path = ''
as $$
  -- At most the week's 5000 newest timed comments are looked at, so the page's cost stays bounded.
  with recent as (
    select c.id, c.post_id, c.room_id, c.author_id, c.at_seconds, c.body, c.created_at
    from public.moments c
    where c.at_seconds is not null and c.created_at > now() - interval '7 days'
      and c.hidden_at is null and c.held_at is null
    order by c.created_at desc
    limit 5000
  ),
  clusters as (
    select c.post_id, floor(c.at_seconds / 10)::integer as bucket, count(*)::integer as comments,
      min(c.at_seconds) as at_seconds, max(c.created_at) as last_at,
      (array_agg(c.id order by c.created_at desc))[1] as sample_id
    from recent c
    join public.rooms r on r.id = c.room_id and r.visibility = 'public'
    group by c.post_id, floor(c.at_seconds / 10)
  )
  select k.post_id, po.title, r.slug, r.name, floor(k.at_seconds)::integer, k.comments, sample.body, au.display_name, k.last_at
  from clusters k
  join public.posts po on po.id = k.post_id and po.hidden_at is null
  join public.rooms r on r.id = po.room_id and r.visibility = 'public'
  join public.moments sample on sample.id = k.sample_id
  left join public.profiles au on au.id = sample.author_id
  order by k.comments desc, k.last_at desc, k.post_id, k.bucket
  limit least(greatest(coalesce(max_moments, 6), 1), 24);
$$;
