-- Posts: media shared in a room — a link react-player can play (media_kind 'embed') or a file
-- uploaded to the private `media` bucket (media_kind 'upload').
--
-- Readable by whoever may read the room's content (everyone for a public room, members for a gated
-- one). Members post as themselves; authors edit their title and body and delete their own;
-- moderators and the owner delete any post in their room. A post of an upload exists only once its
-- file does. `embed` (normalised oEmbed metadata) is written by the server, never by the author.

create table public.posts (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references public.rooms (id) on delete cascade,
  author_id uuid not null references public.profiles (id) on delete cascade,
  title text not null,
  body text not null default '',
  media_kind text not null,
  media_url text,
  storage_path text,
  embed jsonb,
  duration_seconds numeric(10, 3),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint posts_title_length check (char_length(btrim(title)) between 1 and 120 and char_length(title) <= 120),
  constraint posts_body_length check (char_length(body) <= 2000),
  constraint posts_media_kind check (media_kind in ('embed', 'upload')),
  constraint posts_media_url_https check (media_url is null or (media_url ~ '^https://[^\s/?#]+[^\s]*$' and char_length(media_url) <= 2048)),
  constraint posts_media_source check (
    (media_kind = 'embed' and media_url is not null and storage_path is null)
    or (media_kind = 'upload' and storage_path is not null and media_url is null)
  ),
  constraint posts_storage_path_in_own_folder check (storage_path is null or storage_path like room_id::text || '/' || author_id::text || '/_%'),
  constraint posts_embed_is_metadata check (embed is null or (jsonb_typeof(embed) = 'object' and not embed ? 'html' and pg_column_size(embed) <= 4096)),
  constraint posts_duration_positive check (duration_seconds is null or (duration_seconds > 0 and duration_seconds <= 172800))
);

comment on table public.posts is 'Media shared in a room: a playable link or an uploaded file, with a title and optional text.';
comment on constraint posts_title_length on public.posts is 'Titles are 1–120 characters';
comment on constraint posts_body_length on public.posts is 'Posts are up to 2000 characters';
comment on constraint posts_media_url_https on public.posts is 'Links must start with https://';
comment on constraint posts_media_source on public.posts is 'A post has either a link or an uploaded file';
comment on constraint posts_storage_path_in_own_folder on public.posts is 'Uploads go in your own folder of the room';
comment on constraint posts_duration_positive on public.posts is 'The duration must be between 0 and 48 hours';

-- The feed: a room's posts, newest first, paginated by (created_at, id).
create index posts_room_feed_idx on public.posts (room_id, created_at desc, id desc);
create index posts_author_id_idx on public.posts (author_id);
create unique index posts_storage_path_key on public.posts (storage_path) where storage_path is not null;

alter table public.posts enable row level security;

revoke all on public.posts from anon, authenticated;
grant select on public.posts to anon, authenticated;
grant insert (room_id, author_id, title, body, media_kind, media_url, storage_path, duration_seconds) on public.posts to authenticated;
grant update (title, body, duration_seconds) on public.posts to authenticated;
grant delete on public.posts to authenticated;
grant select, insert, update, delete on public.posts to service_role;

create policy "Posts are readable by whoever may read the room"
  on public.posts for select
  to anon, authenticated
  using ((select private.can_read_room_content(room_id)));

create policy "Members post as themselves"
  on public.posts for insert
  to authenticated
  with check (author_id = (select auth.uid()) and (select private.room_role(room_id)) is not null);

create policy "Authors edit their own posts"
  on public.posts for update
  to authenticated
  using (author_id = (select auth.uid()) and (select private.room_role(room_id)) is not null)
  with check (author_id = (select auth.uid()));

create policy "Authors, moderators and the owner delete posts"
  on public.posts for delete
  to authenticated
  using (
    author_id = (select auth.uid())
    or (select private.room_role(room_id)) in ('owner', 'moderator')
  );

create trigger posts_touch_updated_at
  before update on public.posts
  for each row execute function private.touch_updated_at();

-- An upload's post is written after its file: refuse a post that points at a file the media bucket
-- does not hold. An after-row (constraint) trigger, so the row's own checks speak first.
create function private.require_uploaded_file()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.storage_path is not null
     and not exists (select 1 from storage.objects o where o.bucket_id = 'media' and o.name = new.storage_path) then
    raise exception 'The upload has not finished — try again once it has'
      using errcode = '23503', constraint = 'posts_storage_path_uploaded';
  end if;
  return null;
end;
$$;

revoke all on function private.require_uploaded_file() from public, anon, authenticated;

create constraint trigger posts_require_uploaded_file
  after insert or update of storage_path on public.posts
  for each row execute function private.require_uploaded_file();

-- ---------------------------------------------------------------------------------------------
-- The media bucket (config.toml: private, 50 MB, audio/* and video/*): `{room_id}/{user_id}/…`.
-- Members upload into their own folder of a room; whoever may read the room reads its files (by
-- signed URLs — the bucket is private); the uploader, the room's moderators and its owner delete.
-- ---------------------------------------------------------------------------------------------
create function private.media_object_room(object_name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case when split_part(object_name, '/', 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then split_part(object_name, '/', 1)::uuid end;
$$;

revoke all on function private.media_object_room(text) from public;
grant execute on function private.media_object_room(text) to anon, authenticated, service_role;

create policy "Media is readable by whoever may read the room"
  on storage.objects for select
  to anon, authenticated
  using (bucket_id = 'media' and private.can_read_room_content(private.media_object_room(name)));

create policy "Members upload media into their own folder of the room"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'media'
    and split_part(name, '/', 2) = (select auth.uid())::text
    and private.room_role(private.media_object_room(name)) is not null
  );

create policy "Uploaders, moderators and the owner delete media"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'media'
    and (
      split_part(name, '/', 2) = (select auth.uid())::text
      or private.room_role(private.media_object_room(name)) in ('owner', 'moderator')
    )
  );

-- Live feed (issue: posts appear without a reload) reads changes from this publication.
alter publication supabase_realtime add table public.posts;
