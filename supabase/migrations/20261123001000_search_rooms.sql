-- The directory's name search as a function with a plan made for each term.
--
-- Through the API a repeated query runs as a prepared statement, and once Postgres settles on a
-- generic plan it no longer sees the term: for a rare term it walks the newest-first index and
-- discards thousands of rows, for a two-character term (too short for trigrams) it scans the
-- trigram index whole. Planning each call with its actual term (force_custom_plan, set on the
-- function only) lets a rare term use the trigram index and a common one the newest-first index.
create function public.search_rooms(
  search text,
  before_created_at timestamptz default null,
  before_id uuid default null,
  page_size integer default 24
)
returns setof public.rooms
language plpgsql
stable
security invoker
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
begin
  if page_size is null or page_size < 1 or page_size > 100 then
    raise exception 'page_size must be between 1 and 100' using errcode = '22023';
  end if;
  return query
    select r.*
    from public.rooms r
    where r.name ilike '%' || coalesce(search, '') || '%'
      and (before_created_at is null
           or r.created_at < before_created_at
           or (r.created_at = before_created_at and r.id < before_id))
    order by r.created_at desc, r.id desc
    limit page_size;
end;
$$;

comment on function public.search_rooms(text, timestamptz, uuid, integer) is 'Rooms whose name matches an ilike pattern (the caller escapes %, _ and \), newest first, one page after (before_created_at, before_id).';

revoke all on function public.search_rooms(text, timestamptz, uuid, integer) from public;
grant execute on function public.search_rooms(text, timestamptz, uuid, integer) to anon, authenticated, service_role;
