-- Activity on the cards: a post's comment count and last activity, a room's last activity.
--
-- Kept as counters by triggers rather than counted per page: a feed page or a directory page reads
-- one row per card. Each counter changes in one statement (`count = count + 1` under the row's
-- lock, or an upsert), so concurrent comments never lose a count. The tables are separate from
-- posts and rooms so that a comment neither touches the post's row (whose updates are broadcast and
-- clear earlier messages about it) nor tells people who may not read a gated room when it was last
-- active: each row is readable exactly when the room's content is (private.can_read_room_content).

create table public.post_activity (
  post_id uuid primary key references public.posts (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  comment_count integer not null default 0,
  last_activity_at timestamptz not null default now(),
  constraint post_activity_comment_count_not_negative check (comment_count >= 0)
);

comment on table public.post_activity is 'Per post: how many comments it has and when it last had one (or was posted). Written by triggers only.';

create index post_activity_room_id_idx on public.post_activity (room_id, last_activity_at desc);

create table public.room_activity (
  room_id uuid primary key references public.rooms (id) on delete cascade,
  post_count integer not null default 0,
  last_activity_at timestamptz not null default now(),
  constraint room_activity_post_count_not_negative check (post_count >= 0)
);

comment on table public.room_activity is 'Per room: how many posts it has and when someone last posted or commented. Written by triggers only.';

alter table public.post_activity enable row level security;
alter table public.room_activity enable row level security;

revoke all on public.post_activity from anon, authenticated;
revoke all on public.room_activity from anon, authenticated;
grant select on public.post_activity to anon, authenticated;
grant select on public.room_activity to anon, authenticated;
grant select, insert, update, delete on public.post_activity to service_role;
grant select, insert, update, delete on public.room_activity to service_role;

create policy "Post activity is readable by whoever may read the room"
  on public.post_activity for select
  to anon, authenticated
  using ((select private.can_read_room_content(room_id)));

create policy "Room activity is readable by whoever may read the room"
  on public.room_activity for select
  to anon, authenticated
  using ((select private.can_read_room_content(room_id)));

-- A post: its own activity row; the room counts it and is active now.
create function private.count_post_activity() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.post_activity (post_id, room_id, last_activity_at)
    values (new.id, new.room_id, new.created_at)
    on conflict (post_id) do nothing;
    insert into public.room_activity as a (room_id, post_count, last_activity_at)
    values (new.room_id, 1, new.created_at)
    on conflict (room_id) do update
      set post_count = a.post_count + 1,
          last_activity_at = greatest(a.last_activity_at, excluded.last_activity_at);
  elsif tg_op = 'DELETE' then
    update public.room_activity set post_count = greatest(post_count - 1, 0) where room_id = old.room_id;
  end if;
  return null;
end;
$$;

-- A comment: its post counts it (or one less when it goes) and, with its room, is active now.
create function private.count_comment_activity() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.post_activity as a (post_id, room_id, comment_count, last_activity_at)
    values (new.post_id, new.room_id, 1, new.created_at)
    on conflict (post_id) do update
      set comment_count = a.comment_count + 1,
          last_activity_at = greatest(a.last_activity_at, excluded.last_activity_at);
    update public.room_activity
      set last_activity_at = greatest(last_activity_at, new.created_at)
      where room_id = new.room_id;
  elsif tg_op = 'DELETE' then
    -- A post deleted with its comments takes its row with it first: nothing left to count down.
    update public.post_activity set comment_count = greatest(comment_count - 1, 0) where post_id = old.post_id;
  end if;
  return null;
end;
$$;

revoke all on function private.count_post_activity() from public;
revoke all on function private.count_comment_activity() from public;

create trigger posts_count_activity
  after insert or delete on public.posts
  for each row execute function private.count_post_activity();

create trigger moments_count_activity
  after insert or delete on public.moments
  for each row execute function private.count_comment_activity();

-- What already exists.
insert into public.post_activity (post_id, room_id, comment_count, last_activity_at)
select p.id, p.room_id, count(m.id)::int, greatest(p.created_at, max(m.created_at))
from public.posts p
left join public.moments m on m.post_id = p.id
group by p.id;

insert into public.room_activity (room_id, post_count, last_activity_at)
select p.room_id, count(*)::int, max(a.last_activity_at)
from public.posts p
join public.post_activity a on a.post_id = p.id
group by p.room_id;
