-- The home page: your rooms with what is new since your last visit, what is live, and the moments
-- people talked about this week.
--
-- 1. public.room_visits: when each person last opened each of their rooms. Written only by
--    public.mark_room_visited, for the caller, in a room where their membership counts; each person
--    reads their own rows. Nobody writes the table directly.
-- 2. public.my_rooms(): the caller's rooms, each with its live session, who else is here now, and the posts
--    and comments others made since the caller last opened it (or joined it, before a first visit).
--    One statement for the whole list; every count reads an index range and stops at 100. A gated
--    membership that no longer counts (the balance check lapsed) lists the room without any of it:
--    its content is for current members only.
-- 3. public.live_now(): sessions on now in rooms the caller may read (anyone: public rooms; a member:
--    their rooms too), by the rule of private.session_is_over, without ending anything.
-- 4. public.top_moments(): the moments of public rooms' posts people commented on most this week —
--    timed comments on the same post within the same ten seconds — never anything of a gated room.

-- ---------------------------------------------------------------------------------------------
-- 1. Visits
-- ---------------------------------------------------------------------------------------------
create table public.room_visits (
  user_id uuid not null references public.profiles (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  seen_at timestamptz not null default now(),
  constraint room_visits_pkey primary key (user_id, room_id)
);

comment on table public.room_visits is 'When each person last opened each of their rooms: written only by mark_room_visited, for the caller.';

create index room_visits_room_id_idx on public.room_visits (room_id);

alter table public.room_visits enable row level security;

create policy "People read their own visits" on public.room_visits
  for select to authenticated using (user_id = (select auth.uid()));

revoke all on public.room_visits from anon, authenticated;
grant select on public.room_visits to authenticated;
grant select, insert, update, delete on public.room_visits to service_role;

create function public.mark_room_visited(target_room uuid)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid := (select auth.uid());
  previous timestamptz;
begin
  if person is null then
    raise exception 'Sign in to keep track of your rooms' using errcode = '42501';
  end if;
  if target_room is null or not private.is_current_member(target_room, person) then
    raise exception 'Only members of this room keep track of their visits' using errcode = '42501';
  end if;
  select v.seen_at into previous from public.room_visits v where v.user_id = person and v.room_id = target_room;
  insert into public.room_visits as v (user_id, room_id, seen_at)
  values (person, target_room, now())
  on conflict (user_id, room_id) do update set seen_at = greatest(v.seen_at, excluded.seen_at);
  return previous;
end;
$$;

comment on function public.mark_room_visited(uuid) is 'A member opened the room now; answers when they had last opened it (null: never).';
revoke all on function public.mark_room_visited(uuid) from public, anon;
grant execute on function public.mark_room_visited(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 2. Your rooms
-- ---------------------------------------------------------------------------------------------
-- New comments since a time, per room: the range of this index (the single-column one it replaces
-- served only the policies and the foreign key, which its first column still does).
create index moments_room_created_idx on public.moments (room_id, created_at);
drop index public.moments_room_id_idx;

create function public.my_rooms(max_rooms integer default 50)
returns table (
  room_id uuid,
  slug text,
  name text,
  cover_path text,
  visibility text,
  member_count integer,
  role text,
  current boolean,
  last_visit_at timestamptz,
  new_posts integer,
  new_comments integer,
  last_activity_at timestamptz,
  live_session_id uuid,
  live_listeners integer,
  here_count integer,
  here jsonb
)
language sql
stable
security definer
set search_path = ''
as $$
  with mine as (
    select r.id, r.slug, r.name, r.cover_path, r.visibility, r.member_count, m.role, m.joined_at,
      private.membership_counts(r.visibility, m.role, m.verified_at) as current,
      v.seen_at,
      greatest(v.seen_at, m.joined_at) as since
    from public.memberships m
    join public.rooms r on r.id = m.room_id
    left join public.room_visits v on v.user_id = m.user_id and v.room_id = m.room_id
    where m.user_id = (select auth.uid())
  )
  select mine.id, mine.slug, mine.name, mine.cover_path, mine.visibility, mine.member_count, mine.role, mine.current,
    mine.seen_at,
    case when mine.current then (
      select count(*)::integer from (
        select 1 from public.posts p
        where p.room_id = mine.id and p.created_at > mine.since and p.author_id <> (select auth.uid())
        limit 100) n) end,
    case when mine.current then (
      select count(*)::integer from (
        select 1 from public.moments c
        where c.room_id = mine.id and c.created_at > mine.since and c.author_id <> (select auth.uid())
        limit 100) n) end,
    activity.at,
    live.id,
    live.listeners,
    coalesce(here.people, 0),
    coalesce(here.faces, '[]'::jsonb)
  from mine
  left join lateral (
    -- The newest post or comment: the first entry of each one's room index.
    select greatest(
      (select max(p.created_at) from public.posts p where p.room_id = mine.id),
      (select max(c.created_at) from public.moments c where c.room_id = mine.id)) as at
    where mine.current
  ) activity on true
  left join lateral (
    select s.id,
      (select count(distinct p.user_id)::integer from public.presence p
        where p.room_id = s.room_id and p.session_id = s.id
          and p.seen_at > now() - private.presence_lifetime()
          and private.is_current_member(s.room_id, p.user_id)) as listeners
    from public.listening_sessions s
    where mine.current and s.room_id = mine.id and s.ended_at is null and not private.session_is_over(s)
  ) live on true
  left join lateral (
    select count(*)::integer as people,
      jsonb_agg(jsonb_build_object('username', pr.username, 'display_name', pr.display_name, 'avatar_path', pr.avatar_path)
                order by f.seen_at desc) filter (where f.rank <= 4) as faces
    from (
      select p.user_id, max(p.seen_at) as seen_at, row_number() over (order by max(p.seen_at) desc) as rank
      from public.presence p
      where mine.current and p.room_id = mine.id and p.seen_at > now() - private.presence_lifetime()
        and p.user_id <> (select auth.uid())
        and private.is_current_member(mine.id, p.user_id)
      group by p.user_id
    ) f
    join public.profiles pr on pr.id = f.user_id
  ) here on true
  order by (live.id is not null) desc, activity.at desc nulls last, mine.joined_at desc, mine.id
  limit least(greatest(coalesce(max_rooms, 50), 1), 100);
$$;

comment on function public.my_rooms(integer) is
  'The caller''s rooms (at most 100): live session, who is here, and others'' posts and comments (counted to 100) since the caller last opened the room. A gated membership that no longer counts shows the room only.';
revoke all on function public.my_rooms(integer) from public, anon;
grant execute on function public.my_rooms(integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 3. Live now
-- ---------------------------------------------------------------------------------------------
create function public.live_now(max_sessions integer default 12)
returns table (
  session_id uuid,
  room_id uuid,
  slug text,
  name text,
  cover_path text,
  visibility text,
  is_member boolean,
  host_name text,
  post_id uuid,
  post_title text,
  playing boolean,
  started_at timestamptz,
  listeners integer
)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, r.id, r.slug, r.name, r.cover_path, r.visibility, mine.room_id is not null,
    h.display_name, s.post_id, po.title, s.playing, s.started_at, coalesce(l.listeners, 0)
  from public.listening_sessions s
  join public.rooms r on r.id = s.room_id
  left join (select private.my_room_ids() as room_id) mine on mine.room_id = r.id
  left join public.profiles h on h.id = s.host_id
  left join public.posts po on po.id = s.post_id
  left join lateral (
    select count(distinct p.user_id)::integer as listeners from public.presence p
    where p.room_id = s.room_id and p.session_id = s.id
      and p.seen_at > now() - private.presence_lifetime()
      and private.is_current_member(s.room_id, p.user_id)
  ) l on true
  where s.ended_at is null
    and (r.visibility = 'public' or mine.room_id is not null)
    and not private.session_is_over(s)
  order by coalesce(l.listeners, 0) desc, s.started_at desc, s.id
  limit least(greatest(coalesce(max_sessions, 12), 1), 50);
$$;

comment on function public.live_now(integer) is
  'Sessions on now in the rooms the caller may read (public rooms, and a member''s own), most listeners first.';
revoke all on function public.live_now(integer) from public;
grant execute on function public.live_now(integer) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 4. The week's moments
-- ---------------------------------------------------------------------------------------------
-- The week's timed comments, newest first: the range top_moments reads.
create index moments_timed_created_idx on public.moments (created_at desc) where at_seconds is not null;

create function public.top_moments(max_moments integer default 6)
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
  join public.posts po on po.id = k.post_id
  join public.rooms r on r.id = po.room_id and r.visibility = 'public'
  join public.moments sample on sample.id = k.sample_id
  left join public.profiles au on au.id = sample.author_id
  order by k.comments desc, k.last_at desc, k.post_id, k.bucket
  limit least(greatest(coalesce(max_moments, 6), 1), 24);
$$;

comment on function public.top_moments(integer) is
  'Public rooms'' most-commented moments this week: timed comments on one post within the same ten seconds, most comments first.';
revoke all on function public.top_moments(integer) from public;
grant execute on function public.top_moments(integer) to anon, authenticated, service_role;
