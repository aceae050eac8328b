-- A comment exactly where a part starts belongs to that part: its part is found as time × parts ÷
-- length (20 s of 40 s in 48 parts: 24), not time ÷ (length ÷ parts), whose rounding put it at
-- 23.999… and so in the part before.

create or replace function public.post_heat(post_id uuid, buckets integer default 48)
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
    select least(floor(w.at * post_heat.buckets / s.seconds)::integer, post_heat.buckets - 1) as part, w.at, w.n
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
