-- Listening together: a room's session, its queue, and comments made during it.
--
-- A session belongs to a room; at most one is live per room. It has a host, who alone changes the
-- playback state (the post playing, where in it, playing or paused, the rate, and the server time
-- that position was true at); everyone following extrapolates the position from that state. The
-- state lives here so a reload, a host leaving or a restart of the backend loses nothing; every
-- change of it is broadcast from the database on the session's private Realtime channel,
-- `session:{room id}`, which only the room's members may join. Clients never broadcast there: a
-- playback message can only come from these functions, so only the host's changes reach anyone.
--
-- Who does what:
-- - start: the owner and moderators; any member when the owner allows (rooms.session_starters);
-- - play, pause, seek, skip, reorder and accept suggestions: the host;
-- - queue posts: the host queues, other members suggest; people withdraw their own suggestions;
-- - end: the host, moderators and the owner;
-- - host: the host hands over to a member; when the host has gone quiet (no heartbeat for
--   `private.host_quiet_after()`) or is no longer a member, any member may claim the host's place.
-- A session whose host has been quiet for `private.session_idle_after()` is over: nobody is there.

-- ---------------------------------------------------------------------------------------------
-- Who may start sessions in a room
-- ---------------------------------------------------------------------------------------------
alter table public.rooms
  add column session_starters text not null default 'moderators',
  add constraint rooms_session_starters check (session_starters in ('moderators', 'members'));

comment on column public.rooms.session_starters is 'Who may start a listening session: the owner and moderators, or every member.';
comment on constraint rooms_session_starters on public.rooms is 'Choose who may start listening sessions: moderators or members';

grant update (session_starters) on public.rooms to authenticated;

-- Moderators edit the room, but only the owner decides who may start sessions.
create function private.only_owner_sets_session_starters()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.session_starters is distinct from old.session_starters
     and current_user = 'authenticated'
     and (select private.room_role(new.id)) is distinct from 'owner' then
    raise exception 'Only the owner decides who may start listening sessions' using errcode = '42501';
  end if;
  return new;
end;
$$;

revoke all on function private.only_owner_sets_session_starters() from public, anon, authenticated;

create trigger rooms_only_owner_sets_session_starters
  before update of session_starters on public.rooms
  for each row execute function private.only_owner_sets_session_starters();

-- ---------------------------------------------------------------------------------------------
-- Sessions
-- ---------------------------------------------------------------------------------------------
create table public.listening_sessions (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references public.rooms (id) on delete cascade,
  started_by uuid references public.profiles (id) on delete set null,
  host_id uuid references public.profiles (id) on delete set null,
  -- The host's last heartbeat (or action); a host quiet for long enough may be replaced.
  host_seen_at timestamptz not null default now(),
  -- The playback state: `post_id` at `position_seconds` at server time `state_at`, moving at
  -- `rate` when `playing`. `version` grows with every change of the state or the host.
  post_id uuid references public.posts (id) on delete set null,
  position_seconds double precision not null default 0,
  playing boolean not null default false,
  rate double precision not null default 1,
  state_at timestamptz not null default now(),
  version bigint not null default 1,
  started_at timestamptz not null default now(),
  ended_at timestamptz,
  constraint listening_sessions_position_range check (position_seconds >= 0 and position_seconds <= 172800),
  constraint listening_sessions_rate_range check (rate >= 0.5 and rate <= 2),
  constraint listening_sessions_ended_after_start check (ended_at is null or ended_at >= started_at)
);

comment on table public.listening_sessions is 'A room''s listening session: its host and the playback everyone follows.';
comment on constraint listening_sessions_position_range on public.listening_sessions is 'A position is a time within the media';
comment on constraint listening_sessions_rate_range on public.listening_sessions is 'Playback speed is between 0.5× and 2×';

create unique index listening_sessions_one_live_per_room on public.listening_sessions (room_id) where ended_at is null;
comment on index public.listening_sessions_one_live_per_room is 'A session is already on in this room — join it';
create index listening_sessions_room_started_idx on public.listening_sessions (room_id, started_at desc);
create index listening_sessions_host_id_idx on public.listening_sessions (host_id);
create index listening_sessions_started_by_idx on public.listening_sessions (started_by);
create index listening_sessions_post_id_idx on public.listening_sessions (post_id);

-- How long a host may be silent before a member may take over (the host's page sends a heartbeat
-- every few seconds), and how long before a session with nobody hosting is over.
create function private.host_quiet_after()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '5 seconds' $$;

create function private.session_idle_after()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '2 minutes' $$;

grant execute on function private.host_quiet_after() to anon, authenticated, service_role;
grant execute on function private.session_idle_after() to anon, authenticated, service_role;

-- A change of the state or the host is a new version (the heartbeat alone is not). A post deleted
-- while it plays leaves the session paused with nothing playing.
create function private.version_session_state()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.post_id is null and old.post_id is not null then
    new.playing := false;
    new.position_seconds := 0;
  end if;
  if (new.post_id, new.position_seconds, new.playing, new.rate, new.state_at, new.host_id, new.ended_at)
     is distinct from (old.post_id, old.position_seconds, old.playing, old.rate, old.state_at, old.host_id, old.ended_at) then
    new.version := old.version + 1;
  end if;
  return new;
end;
$$;

revoke all on function private.version_session_state() from public, anon, authenticated;

create trigger listening_sessions_version
  before update on public.listening_sessions
  for each row execute function private.version_session_state();

-- ---------------------------------------------------------------------------------------------
-- The queue: posts of the room to play next. The host's entries are `queued` (in `sort_key`
-- order); other members' are `suggested` until the host accepts (queues) or removes them.
-- ---------------------------------------------------------------------------------------------
create table public.session_queue (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.listening_sessions (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  post_id uuid not null references public.posts (id) on delete cascade,
  added_by uuid references public.profiles (id) on delete set null,
  status text not null default 'suggested',
  sort_key double precision not null default 0,
  created_at timestamptz not null default now(),
  constraint session_queue_status check (status in ('queued', 'suggested')),
  constraint session_queue_one_per_post unique (session_id, post_id)
);

comment on table public.session_queue is 'What a session plays next (queued, in sort_key order) and what members suggest.';
comment on constraint session_queue_one_per_post on public.session_queue is 'That post is already in the queue';
comment on constraint session_queue_status on public.session_queue is 'A queue entry is queued or suggested';

create index session_queue_order_idx on public.session_queue (session_id, status, sort_key);
create index session_queue_room_id_idx on public.session_queue (room_id);
create index session_queue_post_id_idx on public.session_queue (post_id);
create index session_queue_added_by_idx on public.session_queue (added_by);

-- The queue's limits: the whole queue, and one person's pending suggestions.
create function private.queue_limit()
returns integer
language sql
immutable
set search_path = ''
as $$ select 200 $$;

create function private.suggestion_limit()
returns integer
language sql
immutable
set search_path = ''
as $$ select 10 $$;

grant execute on function private.queue_limit() to anon, authenticated, service_role;
grant execute on function private.suggestion_limit() to anon, authenticated, service_role;

-- Whether the caller hosts this live session.
create function private.hosts_session(target_session uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.listening_sessions s
    where s.id = target_session and s.ended_at is null and s.host_id = (select auth.uid())
  );
$$;

revoke all on function private.hosts_session(uuid) from public;
grant execute on function private.hosts_session(uuid) to anon, authenticated, service_role;

-- A new entry: the room from its session; the post must be the room's; the host's entries are
-- queued at the end, anyone else's are suggestions; the limits hold. Security definer: the session
-- and the post are read whatever the caller may see (the insert policy then decides).
create function private.queue_entry_from_session()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent public.listening_sessions%rowtype;
  post_room uuid;
begin
  select * into parent from public.listening_sessions s where s.id = new.session_id;
  if not found then
    raise exception 'That session no longer exists' using errcode = '23503', constraint = 'session_queue_session_id_fkey';
  end if;
  if parent.ended_at is not null then
    raise exception 'This session has ended' using errcode = 'PT409';
  end if;
  select p.room_id into post_room from public.posts p where p.id = new.post_id;
  if post_room is distinct from parent.room_id then
    raise exception 'That post isn''t in this room' using errcode = '23503', constraint = 'session_queue_post_id_fkey';
  end if;
  new.room_id := parent.room_id;
  -- A person's entry (the service role, with no user, sets what it likes).
  if (select auth.uid()) is not null then
    new.status := case when parent.host_id = (select auth.uid()) then 'queued' else 'suggested' end;
  end if;
  if (select count(*) from public.session_queue q where q.session_id = new.session_id) >= private.queue_limit() then
    raise exception 'The queue holds up to % posts', private.queue_limit() using errcode = '23514', constraint = 'session_queue_limit';
  end if;
  if new.status = 'suggested'
     and (select count(*) from public.session_queue q
          where q.session_id = new.session_id and q.added_by = new.added_by and q.status = 'suggested') >= private.suggestion_limit() then
    raise exception 'You can suggest up to % posts at a time', private.suggestion_limit() using errcode = '23514', constraint = 'session_queue_suggestion_limit';
  end if;
  new.sort_key := coalesce((select max(q.sort_key) from public.session_queue q where q.session_id = new.session_id), 0) + 1;
  return new;
end;
$$;

revoke all on function private.queue_entry_from_session() from public, anon, authenticated;

create trigger session_queue_from_session
  before insert on public.session_queue
  for each row execute function private.queue_entry_from_session();

-- ---------------------------------------------------------------------------------------------
-- Moments made during a session are stamped with it (and with the player's position, as any
-- moment at a time is). The session must be live, in the moment's room, playing the moment's post.
-- ---------------------------------------------------------------------------------------------
alter table public.moments add column session_id uuid references public.listening_sessions (id) on delete set null;
create index moments_session_id_idx on public.moments (session_id);
grant insert (session_id) on public.moments to authenticated;

create function private.moment_in_session()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent public.listening_sessions%rowtype;
begin
  if new.session_id is null then
    return new;
  end if;
  select * into parent from public.listening_sessions s where s.id = new.session_id;
  if not found or parent.room_id is distinct from new.room_id then
    raise exception 'That session isn''t in this room' using errcode = '23503', constraint = 'moments_session_id_fkey';
  end if;
  if parent.ended_at is not null then
    raise exception 'This session has ended' using errcode = 'PT409';
  end if;
  if parent.post_id is distinct from new.post_id then
    raise exception 'That post isn''t playing in the session any more' using errcode = 'PT409';
  end if;
  return new;
end;
$$;

revoke all on function private.moment_in_session() from public, anon, authenticated;

-- Runs after moments_from_post (trigger order is by name), which has set room_id.
create trigger moments_within_session
  before insert or update of session_id on public.moments
  for each row execute function private.moment_in_session();

-- ---------------------------------------------------------------------------------------------
-- Privileges and policies. Sessions change only through the functions below; the queue is written
-- directly, under its policies.
-- ---------------------------------------------------------------------------------------------
alter table public.listening_sessions enable row level security;
alter table public.session_queue enable row level security;

revoke all on public.listening_sessions, public.session_queue from anon, authenticated;
grant select on public.listening_sessions, public.session_queue to anon, authenticated;
grant insert (session_id, post_id, added_by) on public.session_queue to authenticated;
grant update (status, sort_key) on public.session_queue to authenticated;
grant delete on public.session_queue to authenticated;
grant select, insert, update, delete on public.listening_sessions, public.session_queue to service_role;

create policy "Sessions are readable by whoever may read the room"
  on public.listening_sessions for select
  to anon, authenticated
  using (
    room_id in (select private.my_room_ids())
    or exists (select 1 from public.rooms r where r.id = listening_sessions.room_id and r.visibility = 'public')
  );

create policy "The queue is readable by whoever may read the room"
  on public.session_queue for select
  to anon, authenticated
  using (
    room_id in (select private.my_room_ids())
    or exists (select 1 from public.rooms r where r.id = session_queue.room_id and r.visibility = 'public')
  );

create policy "Members queue and suggest as themselves"
  on public.session_queue for insert
  to authenticated
  with check (added_by = (select auth.uid()) and room_id in (select private.my_room_ids()));

create policy "The host orders the queue and accepts suggestions"
  on public.session_queue for update
  to authenticated
  using ((select private.hosts_session(session_id)))
  with check ((select private.hosts_session(session_id)));

create policy "The host, moderators and the owner remove entries; people withdraw their suggestions"
  on public.session_queue for delete
  to authenticated
  using (
    (select private.hosts_session(session_id))
    or (added_by = (select auth.uid()) and status = 'suggested')
    or (select private.room_role(room_id)) in ('owner', 'moderator')
  );

-- ---------------------------------------------------------------------------------------------
-- The functions that change a session. Security definer with the checks written out: each says in
-- words why it refuses. Conflicts with the session's state answer HTTP 409 (SQLSTATE PT409).
-- ---------------------------------------------------------------------------------------------

-- The caller's live session, locked for the change, or an error saying why there is none.
create function private.live_session_for_change(target_session uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to listen together' using errcode = '42501';
  end if;
  select * into found_session from public.listening_sessions s where s.id = target_session for update;
  if not found or (select private.room_role(found_session.room_id)) is null then
    raise exception 'Only members of the room can take part in its session' using errcode = '42501';
  end if;
  if found_session.ended_at is not null then
    raise exception 'This session has ended' using errcode = 'PT409';
  end if;
  return found_session;
end;
$$;

-- The server time a playback change is true at: the client's estimate of the server's clock when
-- the person acted, or now when it is missing or implausible (more than 5 s ago or 1 s ahead).
create function private.state_time(claimed timestamptz)
returns timestamptz
language sql
volatile
set search_path = ''
as $$
  select case
    when claimed is null or claimed < clock_timestamp() - interval '5 seconds' or claimed > clock_timestamp() + interval '1 second'
      then clock_timestamp()
    else claimed
  end;
$$;

revoke all on function private.live_session_for_change(uuid) from public, anon, authenticated;
revoke all on function private.state_time(timestamptz) from public, anon, authenticated;

-- A post of this room (its duration, null when unknown), or an error.
create function private.session_post_duration(target_room uuid, target_post uuid)
returns double precision
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_post public.posts%rowtype;
begin
  select * into found_post from public.posts p where p.id = target_post and p.room_id = target_room;
  if not found then
    raise exception 'That post isn''t in this room' using errcode = '23503', constraint = 'listening_sessions_post_id_fkey';
  end if;
  return found_post.duration_seconds::double precision;
end;
$$;

revoke all on function private.session_post_duration(uuid, uuid) from public, anon, authenticated;

create function public.start_listening_session(room_id uuid, post_id uuid default null)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  caller_role text := (select private.room_role(start_listening_session.room_id));
  starters text;
  started public.listening_sessions;
begin
  if caller is null then
    raise exception 'Sign in to listen together' using errcode = '42501';
  end if;
  if caller_role is null then
    raise exception 'Join the room to start a session' using errcode = '42501';
  end if;
  select r.session_starters into starters from public.rooms r where r.id = start_listening_session.room_id;
  if caller_role = 'member' and starters <> 'members' then
    raise exception 'Only the owner and moderators can start a session in this room' using errcode = '42501';
  end if;
  if start_listening_session.post_id is not null then
    perform private.session_post_duration(start_listening_session.room_id, start_listening_session.post_id);
  end if;
  -- A session nobody has hosted for a while is over: it makes way for the new one.
  update public.listening_sessions s
    set ended_at = greatest(s.host_seen_at, s.started_at), playing = false
    where s.room_id = start_listening_session.room_id and s.ended_at is null
      and s.host_seen_at < clock_timestamp() - private.session_idle_after();
  begin
    insert into public.listening_sessions (room_id, started_by, host_id, post_id)
    values (start_listening_session.room_id, caller, caller, start_listening_session.post_id)
    returning * into started;
  exception when unique_violation then
    raise exception 'A session is already on in this room — join it' using errcode = 'PT409';
  end;
  return started;
end;
$$;

comment on function public.start_listening_session(uuid, uuid) is 'Starts the room''s listening session with the caller as host (optionally with a post loaded, paused at 0).';

create function public.end_listening_session(session_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions;
begin
  select * into found_session from public.listening_sessions s where s.id = end_listening_session.session_id for update;
  if not found or (select private.room_role(found_session.room_id)) is null then
    raise exception 'Only members of the room can take part in its session' using errcode = '42501';
  end if;
  if found_session.ended_at is not null then
    return found_session;
  end if;
  if found_session.host_id is distinct from (select auth.uid())
     and (select private.room_role(found_session.room_id)) not in ('owner', 'moderator') then
    raise exception 'Only the host, moderators and the owner can end the session' using errcode = '42501';
  end if;
  update public.listening_sessions s set ended_at = clock_timestamp(), playing = false
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.end_listening_session(uuid) is 'Ends the session (host, moderators, owner); ending an ended session changes nothing.';

-- The host sets what plays: the post (a different one leaves the queue), where, playing or not,
-- and how fast, true at `at` (the host's estimate of the server's clock when they acted).
create function public.set_session_playback(
  session_id uuid,
  post_id uuid,
  position_seconds double precision,
  playing boolean,
  rate double precision default 1,
  at timestamptz default null
)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(set_session_playback.session_id);
  duration double precision;
  target_position double precision := set_session_playback.position_seconds;
begin
  if found_session.host_id is distinct from (select auth.uid()) then
    raise exception 'Only the host controls playback' using errcode = '42501';
  end if;
  if set_session_playback.post_id is null then
    if set_session_playback.playing then
      raise exception 'Choose a post to play' using errcode = '22023';
    end if;
    target_position := 0;
  else
    duration := private.session_post_duration(found_session.room_id, set_session_playback.post_id);
    if target_position is not null and duration is not null and target_position > duration then
      target_position := duration;
    end if;
  end if;
  if target_position is null or set_session_playback.playing is null or set_session_playback.rate is null then
    raise exception 'Give a position, whether it plays, and a rate' using errcode = '22023';
  end if;
  if set_session_playback.post_id is distinct from found_session.post_id and set_session_playback.post_id is not null then
    delete from public.session_queue q where q.session_id = found_session.id and q.post_id = set_session_playback.post_id;
  end if;
  update public.listening_sessions s
    set post_id = set_session_playback.post_id,
        position_seconds = target_position,
        playing = set_session_playback.playing,
        rate = set_session_playback.rate,
        state_at = private.state_time(set_session_playback.at),
        host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.set_session_playback(uuid, uuid, double precision, boolean, double precision, timestamptz) is 'Host only: sets the playback everyone follows.';

-- The host moves on to the first queued post, if `after_post_id` is still what plays (so a
-- double "next" — a button and the media ending — advances once). An empty queue pauses.
create function public.play_next_in_session(session_id uuid, after_post_id uuid, at timestamptz default null)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(play_next_in_session.session_id);
  next_entry public.session_queue;
begin
  if found_session.host_id is distinct from (select auth.uid()) then
    raise exception 'Only the host controls playback' using errcode = '42501';
  end if;
  if found_session.post_id is distinct from play_next_in_session.after_post_id then
    return found_session;
  end if;
  select * into next_entry from public.session_queue q
    where q.session_id = found_session.id and q.status = 'queued'
    order by q.sort_key, q.created_at
    limit 1;
  if found then
    delete from public.session_queue q where q.id = next_entry.id;
    update public.listening_sessions s
      set post_id = next_entry.post_id, position_seconds = 0, playing = true,
          state_at = private.state_time(play_next_in_session.at), host_seen_at = clock_timestamp()
      where s.id = found_session.id
      returning * into found_session;
  else
    update public.listening_sessions s
      set playing = false,
          position_seconds = least(
            s.position_seconds + case when s.playing then extract(epoch from (private.state_time(play_next_in_session.at) - s.state_at)) * s.rate else 0 end,
            coalesce((select p.duration_seconds::double precision from public.posts p where p.id = s.post_id), 172800)),
          state_at = private.state_time(play_next_in_session.at), host_seen_at = clock_timestamp()
      where s.id = found_session.id
      returning * into found_session;
  end if;
  return found_session;
end;
$$;

comment on function public.play_next_in_session(uuid, uuid, timestamptz) is 'Host only: plays the first queued post if after_post_id still plays; with nothing queued, pauses.';

-- The host's page says it is still there (every few seconds). Returns the server's time.
create function public.session_heartbeat(session_id uuid)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(session_heartbeat.session_id);
begin
  if found_session.host_id is distinct from (select auth.uid()) then
    raise exception 'Only the host''s page sends heartbeats' using errcode = '42501';
  end if;
  update public.listening_sessions s set host_seen_at = clock_timestamp() where s.id = found_session.id;
  return clock_timestamp();
end;
$$;

-- A member takes the host's place: when the host (still `expected_host_id`) has gone quiet, is no
-- longer a member, or is gone. Claiming one's own place changes nothing.
create function public.claim_session_host(session_id uuid, expected_host_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions := private.live_session_for_change(claim_session_host.session_id);
begin
  if found_session.host_id = caller then
    return found_session;
  end if;
  if found_session.host_id is distinct from claim_session_host.expected_host_id then
    raise exception 'Someone else is hosting now' using errcode = 'PT409';
  end if;
  if found_session.host_seen_at < clock_timestamp() - private.session_idle_after() then
    raise exception 'This session has ended' using errcode = 'PT409';
  end if;
  if found_session.host_id is not null
     and found_session.host_seen_at >= clock_timestamp() - private.host_quiet_after()
     and exists (select 1 from public.memberships m where m.room_id = found_session.room_id and m.user_id = found_session.host_id) then
    raise exception 'The host is still here' using errcode = 'PT409';
  end if;
  update public.listening_sessions s set host_id = caller, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.claim_session_host(uuid, uuid) is 'Any member: becomes host when the host has gone quiet or is no longer a member.';

-- The host, a moderator or the owner gives the host's place to another member.
create function public.hand_over_session(session_id uuid, new_host_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(hand_over_session.session_id);
begin
  if found_session.host_id is distinct from (select auth.uid())
     and (select private.room_role(found_session.room_id)) not in ('owner', 'moderator') then
    raise exception 'Only the host, moderators and the owner can hand the session over' using errcode = '42501';
  end if;
  if not exists (select 1 from public.memberships m where m.room_id = found_session.room_id and m.user_id = hand_over_session.new_host_id) then
    raise exception 'That person isn''t a member of this room' using errcode = '23503', constraint = 'listening_sessions_host_id_fkey';
  end if;
  update public.listening_sessions s set host_id = hand_over_session.new_host_id, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

-- The host's page is closing: its place may be claimed at once.
create function public.release_session_host(session_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.listening_sessions s set host_seen_at = clock_timestamp() - private.host_quiet_after() - interval '1 second'
    where s.id = release_session_host.session_id and s.ended_at is null and s.host_id = (select auth.uid());
end;
$$;

-- The server's clock in milliseconds since the epoch: pages estimate their offset from it.
create function public.server_clock_ms()
returns double precision
language sql
volatile
set search_path = ''
as $$ select extract(epoch from clock_timestamp()) * 1000 $$;

comment on function public.server_clock_ms() is 'The server''s clock (ms since the epoch), for pages to estimate their clock offset.';

revoke all on function public.start_listening_session(uuid, uuid) from public, anon;
revoke all on function public.end_listening_session(uuid) from public, anon;
revoke all on function public.set_session_playback(uuid, uuid, double precision, boolean, double precision, timestamptz) from public, anon;
revoke all on function public.play_next_in_session(uuid, uuid, timestamptz) from public, anon;
revoke all on function public.session_heartbeat(uuid) from public, anon;
revoke all on function public.claim_session_host(uuid, uuid) from public, anon;
revoke all on function public.hand_over_session(uuid, uuid) from public, anon;
revoke all on function public.release_session_host(uuid) from public, anon;
grant execute on function public.start_listening_session(uuid, uuid) to authenticated, service_role;
grant execute on function public.end_listening_session(uuid) to authenticated, service_role;
grant execute on function public.set_session_playback(uuid, uuid, double precision, boolean, double precision, timestamptz) to authenticated, service_role;
grant execute on function public.play_next_in_session(uuid, uuid, timestamptz) to authenticated, service_role;
grant execute on function public.session_heartbeat(uuid) to authenticated, service_role;
grant execute on function public.claim_session_host(uuid, uuid) to authenticated, service_role;
grant execute on function public.hand_over_session(uuid, uuid) to authenticated, service_role;
grant execute on function public.release_session_host(uuid) to authenticated, service_role;
grant execute on function public.server_clock_ms() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The session's channel, `session:{room id}`: the database broadcasts every new version of the
-- session (event `session`, payload the row) and every queue change (event `queue`, from
-- realtime.broadcast_changes). Members receive and share presence; nobody broadcasts.
-- ---------------------------------------------------------------------------------------------
create function private.room_id_of_session_topic(topic text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when topic ~ '^session:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then substr(topic, 9)::uuid
  end;
$$;

revoke all on function private.room_id_of_session_topic(text) from public;
grant execute on function private.room_id_of_session_topic(text) to anon, authenticated, service_role;

create policy "Session channels are received by the room's members"
  on realtime.messages for select
  to authenticated
  using (
    (select realtime.topic()) like 'session:%'
    and (select private.room_role(private.room_id_of_session_topic((select realtime.topic())))) is not null
  );

create policy "Members share their presence in the session's channel"
  on realtime.messages for insert
  to authenticated
  with check (
    extension = 'presence'
    and (select realtime.topic()) like 'session:%'
    and (select private.room_role(private.room_id_of_session_topic((select realtime.topic())))) is not null
  );

create function private.broadcast_session_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform realtime.send(to_jsonb(new), 'session', 'session:' || new.room_id, true);
  return null;
end;
$$;

create function private.broadcast_queue_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
begin
  perform realtime.broadcast_changes('session:' || target_room, 'queue', tg_op, tg_table_name, tg_table_schema, new, old);
  return null;
end;
$$;

revoke all on function private.broadcast_session_change() from public, anon, authenticated;
revoke all on function private.broadcast_queue_change() from public, anon, authenticated;

create trigger listening_sessions_broadcast_insert
  after insert on public.listening_sessions
  for each row execute function private.broadcast_session_change();

create trigger listening_sessions_broadcast_update
  after update on public.listening_sessions
  for each row when (old.version is distinct from new.version)
  execute function private.broadcast_session_change();

create trigger session_queue_broadcast
  after insert or update or delete on public.session_queue
  for each row execute function private.broadcast_queue_change();
