-- What a profile (/u/<username>) lists of a person: the public rooms they belong to, and their posts
-- and comments (replies included) in public rooms, newest first. Only what everyone may see, for
-- everyone, whoever asks: never a gated room or anything in one (not even to its members), never a
-- hidden or held item, a deleted comment's remains, or a comment under a hidden post — not even to
-- the author or the room's moderators, whom the tables' own policies would let see some of these.
-- Both functions run as the caller (security invoker), so the tables' policies apply on top of
-- these filters, which are narrower than the policies for every caller.

-- The cursor reads: a person's posts and comments by (created_at, id), newest first. They lead with
-- author_id, so they also serve the foreign keys the single-column indexes served.
create index posts_author_created_idx on public.posts (author_id, created_at desc, id desc);
drop index public.posts_author_id_idx;
create index moments_author_created_idx on public.moments (author_id, created_at desc, id desc);
drop index public.moments_author_id_idx;

create function public.profile_rooms(profile_id uuid, max_rooms integer default 50)
returns table (
  room_id uuid,
  slug text,
  name text,
  description text,
  cover_path text,
  member_count integer,
  created_at timestamptz,
  role text,
  joined_at timestamptz,
  last_activity_at timestamptz
)
language sql
stable
security invoker
set search_path = ''
as $$
  select r.id, r.slug, r.name, r.description, r.cover_path, r.member_count, r.created_at,
         m.role, m.joined_at, a.last_activity_at
  from public.memberships m
  join public.rooms r on r.id = m.room_id
  left join public.room_activity a on a.room_id = r.id
  where m.user_id = profile_rooms.profile_id
    and r.visibility = 'public'
  order by case m.role when 'owner' then 0 when 'moderator' then 1 else 2 end,
           a.last_activity_at desc nulls last, r.id
  limit least(greatest(coalesce(profile_rooms.max_rooms, 50), 1), 100);
$$;

comment on function public.profile_rooms(uuid, integer) is 'The public rooms a person belongs to, with their role: the owner''s and moderator''s first, then the most recently active. Never a gated room, whoever asks.';
revoke all on function public.profile_rooms(uuid, integer) from public;
grant execute on function public.profile_rooms(uuid, integer) to anon, authenticated;

create function public.profile_activity(
  profile_id uuid,
  before_created timestamptz default null,
  before_id uuid default null,
  page_size integer default 20
)
returns table (
  kind text,
  id uuid,
  created_at timestamptz,
  room_slug text,
  room_name text,
  post_id uuid,
  post_title text,
  body text,
  at_seconds double precision,
  is_reply boolean,
  media_kind text,
  embed jsonb,
  duration_seconds numeric,
  comment_count integer
)
language sql
stable
security invoker
set search_path = ''
as $$
  with bounds as (
    select least(greatest(coalesce(profile_activity.page_size, 20), 1), 50) as n,
           profile_activity.before_created as before_at,
           coalesce(profile_activity.before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid) as before_key
  ),
  their_posts as (
    select 'post'::text as kind, p.id, p.created_at, r.slug, r.name, p.id as post_id, p.title,
           null::text as body, null::double precision as at_seconds, false as is_reply,
           p.media_kind, p.embed, p.duration_seconds, coalesce(a.comment_count, 0) as comment_count
    from public.posts p
    join public.rooms r on r.id = p.room_id
    left join public.post_activity a on a.post_id = p.id
    cross join bounds b
    where p.author_id = profile_activity.profile_id
      and r.visibility = 'public'
      and p.hidden_at is null
      and (b.before_at is null or (p.created_at, p.id) < (b.before_at, b.before_key))
    order by p.created_at desc, p.id desc
    limit (select n from bounds)
  ),
  their_comments as (
    select 'comment'::text as kind, c.id, c.created_at, r.slug, r.name, p.id as post_id, p.title,
           left(c.body, 280) as body, c.at_seconds, c.parent_id is not null as is_reply,
           null::text, null::jsonb, null::numeric, null::integer
    from public.moments c
    join public.posts p on p.id = c.post_id
    join public.rooms r on r.id = c.room_id
    cross join bounds b
    where c.author_id = profile_activity.profile_id
      and r.visibility = 'public'
      and c.hidden_at is null
      and c.held_at is null
      and c.deleted_at is null
      and p.hidden_at is null
      and (b.before_at is null or (c.created_at, c.id) < (b.before_at, b.before_key))
    order by c.created_at desc, c.id desc
    limit (select n from bounds)
  )
  select * from (select * from their_posts union all select * from their_comments) items
  order by items.created_at desc, items.id desc
  limit (select n from bounds);
$$;

comment on function public.profile_activity(uuid, timestamptz, uuid, integer) is 'A person''s posts (with their media''s details and comment count) and comments in public rooms, newest first, paged by (created_at, id): only what everyone may see (nothing hidden, held or deleted, nothing under a hidden post, nothing of a gated room), whoever asks.';
revoke all on function public.profile_activity(uuid, timestamptz, uuid, integer) from public;
grant execute on function public.profile_activity(uuid, timestamptz, uuid, integer) to anon, authenticated;
