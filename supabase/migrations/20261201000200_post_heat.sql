-- Where the room reacted: a post's comments and reactions counted along its timeline, in parts of
-- equal length, with the three hottest moments marked. Invoker's rights, so the tables' policies
-- decide what is counted: exactly the comments (replies at their parent's time) and reactions the
-- caller may read — a hidden or held comment counts only for those who may see it, and its reactions
-- with it.
--
-- Counting 10,000 comments under the moments read rule asked whether their post is hidden once per
-- comment (a security-definer call each, most of the time spent); the rule now asks once per
-- statement for the posts hidden from the caller, the same answer.

create function private.posts_hidden_from_caller()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.posts p where p.hidden_at is not null and p.author_id is distinct from (select auth.uid());
$$;

comment on function private.posts_hidden_from_caller() is 'The posts hidden by reports that are not the caller''s: their comments are not theirs to read. Security definer, as the posts read rule would hide them from the very check.';
revoke all on function private.posts_hidden_from_caller() from public;
grant execute on function private.posts_hidden_from_caller() to anon, authenticated;

-- The hidden posts are few: found without reading the others.
create index posts_hidden_idx on public.posts (hidden_at) where hidden_at is not null;

drop policy "Moments are readable by whoever may read the room; hidden or held ones by their author and moderators" on public.moments;
create policy "Moments are readable by whoever may read the room; hidden or held ones by their author and moderators"
  on public.moments for select
  to anon, authenticated
  using (
    (moments.room_id in (select private.my_room_ids())
     or exists (select 1 from public.rooms r where r.id = moments.room_id and r.visibility = 'public'))
    and (((moments.hidden_at is null and moments.held_at is null) and moments.post_id not in (select private.posts_hidden_from_caller()))
         or moments.author_id = (select auth.uid())
         or (select private.moderates_room(moments.room_id)))
  );

create function public.post_heat(post_id uuid, buckets integer default 48)
returns table (
  bucket integer,
  starts_at double precision,
  ends_at double precision,
  comments integer,
  reactions integer,
  hot integer,
  peak_at double precision
)
language plpgsql
stable
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
-- a few milliseconds of work, which JIT compiling (planned for 10,000 rows) would multiply
set jit = off
as $$
#variable_conflict use_column
begin
  if buckets is null or buckets < 1 or buckets > 200 then
    raise exception 'A heat strip has between 1 and 200 parts' using errcode = '22023';
  end if;
  return query
  with timed as (
    -- the comments on the timeline (general ones have no time; a deleted comment's words are gone)
    select m.id, m.at_seconds as at
    from public.moments m
    where m.post_id = post_heat.post_id and m.at_seconds is not null and m.deleted_at is null
  ),
  reacted as (
    select r.moment_id, count(*)::int as n
    from public.reactions r
    where r.post_id = post_heat.post_id
    group by r.moment_id
  ),
  weighed as (
    -- a reaction counts where its comment is, and only with a comment the caller may read
    select t.at, coalesce(x.n, 0) as n
    from timed t
    left join reacted x on x.moment_id = t.id
  ),
  span as (
    -- the media's length, or (not known yet) up to the last comment
    select greatest(coalesce((select p.duration_seconds::double precision from public.posts p where p.id = post_heat.post_id), 0),
                    coalesce(max(w.at), 0), 1) as seconds
    from weighed w
  ),
  placed as (
    select least(floor(w.at / (s.seconds / post_heat.buckets))::integer, post_heat.buckets - 1) as part, w.at, w.n
    from weighed w cross join span s
  ),
  per_second as (
    select p.part, min(p.at) as first_at, count(*)::integer as c, sum(p.n)::integer as n
    from placed p
    group by p.part, floor(p.at)
  ),
  parts as (
    -- each part's counts, and the second in it where most happened (the earliest of equals)
    select s.part, sum(s.c)::integer as c, sum(s.n)::integer as n,
           (array_agg(s.first_at order by s.c + s.n desc, s.first_at))[1] as peak
    from per_second s
    group by s.part
  ),
  shaped as (
    -- a hot moment is a peak: more than the part before it, no less than the part after it
    select q.*,
           q.c + q.n > coalesce(case when lag(q.part) over w = q.part - 1 then lag(q.c + q.n) over w end, 0)
             and q.c + q.n >= coalesce(case when lead(q.part) over w = q.part + 1 then lead(q.c + q.n) over w end, 0) as is_peak
    from parts q
    window w as (order by q.part)
  ),
  ranked as (
    select q.*, case when q.is_peak then row_number() over (partition by q.is_peak order by q.c + q.n desc, q.c desc, q.part) end as place
    from shaped q
  )
  select q.part, q.part * s.seconds / post_heat.buckets, (q.part + 1) * s.seconds / post_heat.buckets, q.c, q.n,
         case when q.place <= 3 then q.place::integer end, q.peak
  from ranked q cross join span s
  order by q.part;
end
$$;

comment on function public.post_heat(uuid, integer) is
  'A post''s comments and reactions counted along its timeline in `buckets` equal parts (1–200; only parts with something in them), the caller''s policies deciding what counts; `hot` ranks the three hottest peaks, `peak_at` the busiest second of a part.';

revoke execute on function public.post_heat(uuid, integer) from public;
grant execute on function public.post_heat(uuid, integer) to anon, authenticated, service_role;
