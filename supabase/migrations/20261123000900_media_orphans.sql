-- Uploads that never became a post: a file in the media bucket with no post pointing at it, older
-- than a grace period (an upload in progress, or one whose post is being written, is younger).
-- The server lists them with this function and deletes them through the Storage API, so the bytes
-- go with the rows. Only the service role may call it.

create function public.media_orphan_uploads(grace interval default interval '1 hour', max_files integer default 100)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select o.name
  from storage.objects o
  where o.bucket_id = 'media'
    and o.created_at < now() - grace
    and not exists (select 1 from public.posts p where p.storage_path = o.name)
  order by o.created_at
  limit greatest(0, least(max_files, 1000));
$$;

comment on function public.media_orphan_uploads(interval, integer) is 'Names of media files older than the grace period that no post points at (for the server''s cleanup).';

revoke all on function public.media_orphan_uploads(interval, integer) from public, anon, authenticated;
grant execute on function public.media_orphan_uploads(interval, integer) to service_role;
