-- Who is here comes from rows the database wrote for the person who is here.
--
-- Realtime presence carries whatever a client puts in it: any member could appear as anyone (an id,
-- a name, an avatar, a role, a join time), or keep someone who left looking present. Now each open
-- page of a member writes its own row through public.mark_here (identity from the caller's token,
-- what it plays checked against the room) at least every 30 s; public.who_is_here reads the rows
-- written in the last 75 s, with each person's name, avatar, role and ENS name from their own
-- records. Pages still use Realtime presence, but only as a prompt: an id in a payload shows no one
-- without a fresh row of that person's own, and a departure shows at once when their presence ends.

create function private.presence_lifetime()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '75 seconds' $$;
comment on function private.presence_lifetime() is 'How long a page''s presence row counts after its last mark_here (its heartbeat is every 30 s).';
revoke all on function private.presence_lifetime() from public;
grant execute on function private.presence_lifetime() to authenticated, service_role;

create table public.presence (
  room_id uuid not null references public.rooms (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- One row per open page (a person may have several).
  tab_id uuid not null,
  session_id uuid references public.listening_sessions (id) on delete set null,
  playing_post_id uuid references public.posts (id) on delete set null,
  following boolean not null default true,
  since timestamptz not null default now(),
  seen_at timestamptz not null default now(),
  constraint presence_pkey primary key (room_id, user_id, tab_id)
);
comment on table public.presence is 'Each open page of a member in a room: written only by mark_here for the caller, read through who_is_here.';
create index presence_room_seen_idx on public.presence (room_id, seen_at);
create index presence_user_idx on public.presence (user_id);
create index presence_session_idx on public.presence (session_id);
create index presence_playing_post_idx on public.presence (playing_post_id);

alter table public.presence enable row level security;
-- A person reads their own rows; everyone else reads through who_is_here. No one writes directly.
create policy "people read their own presence rows" on public.presence
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.presence from anon, authenticated;
grant select on public.presence to authenticated;

create function public.mark_here(target_room uuid, tab uuid, in_session uuid default null, playing_post uuid default null, is_following boolean default true)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid := (select auth.uid());
  joined timestamptz;
begin
  if person is null then
    raise exception 'Sign in to be shown here' using errcode = '42501';
  end if;
  if tab is null or not private.is_current_member(target_room, person) then
    raise exception 'Only members of this room are shown here' using errcode = '42501';
  end if;
  -- Only a live session of this room, and only a post of this room.
  if in_session is not null and not exists (select 1 from public.listening_sessions s where s.id = in_session and s.room_id = target_room and s.ended_at is null) then
    in_session := null;
  end if;
  if playing_post is not null and not exists (select 1 from public.posts p where p.id = playing_post and p.room_id = target_room) then
    playing_post := null;
  end if;
  -- Rows nobody has marked for a while go (pages closed without saying so).
  delete from public.presence p where p.room_id = target_room and p.seen_at < now() - private.presence_lifetime() * 8;
  insert into public.presence as p (room_id, user_id, tab_id, session_id, playing_post_id, following)
  values (target_room, person, tab, in_session, playing_post, coalesce(is_following, true))
  on conflict (room_id, user_id, tab_id) do update
    set session_id = excluded.session_id,
        playing_post_id = excluded.playing_post_id,
        following = excluded.following,
        seen_at = now(),
        -- Joining another session (or none) starts the time here again: the order of takeover goes by it.
        since = case when p.session_id is not distinct from excluded.session_id and p.seen_at > now() - private.presence_lifetime() then p.since else now() end
  returning p.since into joined;
  -- At most 10 open pages per person and room: the least recently marked go first.
  delete from public.presence p
  where p.room_id = target_room and p.user_id = person
    and p.tab_id in (select q.tab_id from public.presence q where q.room_id = target_room and q.user_id = person order by q.seen_at desc offset 10);
  return joined;
end;
$$;
comment on function public.mark_here(uuid, uuid, uuid, uuid, boolean) is 'The caller''s open page is here (and in a session, playing a post, following the host or not); returns since when.';
revoke all on function public.mark_here(uuid, uuid, uuid, uuid, boolean) from public, anon;
grant execute on function public.mark_here(uuid, uuid, uuid, uuid, boolean) to authenticated;

create function public.leave_here(target_room uuid, tab uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.presence p where p.room_id = target_room and p.user_id = (select auth.uid()) and p.tab_id = tab;
$$;
comment on function public.leave_here(uuid, uuid) is 'The caller''s open page leaves the room.';
revoke all on function public.leave_here(uuid, uuid) from public, anon;
grant execute on function public.leave_here(uuid, uuid) to authenticated;

create function public.who_is_here(target_room uuid)
returns table (
  user_id uuid,
  username text,
  display_name text,
  avatar_path text,
  ens_name text,
  ens_avatar text,
  role text,
  session_id uuid,
  playing_post_id uuid,
  playing_title text,
  following boolean,
  since timestamptz,
  seen_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  with fresh as (
    select p.*
    from public.presence p
    where p.room_id = target_room
      and p.seen_at > now() - private.presence_lifetime()
      and private.can_read_room_content(target_room)
      and private.is_current_member(target_room, p.user_id)
  ),
  per_person as (
    select f.user_id,
      (array_agg(f.session_id order by f.seen_at desc) filter (where f.session_id is not null))[1] as session_id,
      (array_agg(f.playing_post_id order by f.seen_at desc) filter (where f.playing_post_id is not null))[1] as playing_post_id,
      max(f.seen_at) as seen_at
    from fresh f
    group by f.user_id
  )
  select pp.user_id, pr.username, pr.display_name, pr.avatar_path, w.ens_name, w.ens_avatar, m.role,
    pp.session_id, pp.playing_post_id, po.title,
    coalesce((select bool_or(f.following) from fresh f where f.user_id = pp.user_id and f.session_id = pp.session_id), true),
    (select min(f.since) from fresh f where f.user_id = pp.user_id and f.session_id is not distinct from pp.session_id),
    pp.seen_at
  from per_person pp
  join public.profiles pr on pr.id = pp.user_id
  join public.memberships m on m.room_id = target_room and m.user_id = pp.user_id
  left join public.posts po on po.id = pp.playing_post_id
  left join lateral (
    select wa.ens_name, wa.ens_avatar from public.wallets wa
    where wa.user_id = pp.user_id and wa.ens_name is not null
    order by wa.verified_at, wa.address
    limit 1
  ) w on true;
$$;
comment on function public.who_is_here(uuid) is 'The members with an open page in the room in the last 75 s, from their own rows and records: nothing for someone who may not read the room.';
revoke all on function public.who_is_here(uuid) from public;
grant execute on function public.who_is_here(uuid) to anon, authenticated;
