-- DJ turns and voting to skip, in listening sessions.
--
-- A room runs its sessions one of two ways (rooms.session_mode, the owner's choice, read when a
-- session starts and kept on it as listening_sessions.mode):
-- - 'host': one host plays the queue, hands over, and is succeeded when they leave (as before);
-- - 'dj_turns': members join a waitlist, each with the one post they will play. The first DJ in the
--   list with a post picked takes the turn: they host the session for that post (so the host's
--   controls, heartbeat and page work as before), for up to rooms.dj_turn_max_seconds. The turn
--   ends when the post ends (the DJ's "next"), when its time is up (anyone may say so, Postgres
--   checks the clock), when a vote skips it, or when the DJ leaves (leaves the waitlist, stops being
--   a member, or goes quiet — then the others' pages claim the place and the turn passes). A DJ whose
--   turn ended goes to the back of the list to pick their next post; people who are not in the
--   session any more are taken off the list when the turn passes them.
--
-- The waitlist, the turn and the skip tally live on the session row, so every change is a new
-- version that the session's channel already carries to every page, and a page that missed some
-- reads them back with the row. Only the functions below change them (they lock the row, so two
-- calls at once happen one after the other), and each says why it refuses.
--
-- Voting to skip: the people listening along (a fresh presence row in the session, following it —
-- not the host or DJ) vote on the track playing (listening_sessions.track, which moves on with
-- every new post or turn). The first vote fixes who may vote on that track and how many votes skip
-- it (rooms.skip_share of them, rounded up); someone who joins later waits for the next track. One
-- vote per person per track (the primary key of session_skip_ballots). The vote that reaches the
-- share skips the track exactly once: in a hosted session the next queued post plays, in DJ turns
-- the turn passes.

-- ---------------------------------------------------------------------------------------------
-- 1. The room's setting
-- ---------------------------------------------------------------------------------------------
alter table public.rooms
  add column session_mode text not null default 'host',
  add column dj_turn_max_seconds integer not null default 600,
  add column skip_share numeric(3, 2) not null default 0.5,
  add constraint rooms_session_mode check (session_mode in ('host', 'dj_turns')),
  add constraint rooms_dj_turn_max_seconds_range check (dj_turn_max_seconds between 60 and 3600),
  add constraint rooms_skip_share_range check (skip_share between 0.1 and 1);

comment on column public.rooms.session_mode is 'How listening sessions run: one host (host), or members taking turns from a waitlist (dj_turns).';
comment on column public.rooms.dj_turn_max_seconds is 'In DJ turns, the longest a turn lasts (seconds).';
comment on column public.rooms.skip_share is 'The share of the people listening along whose votes skip a track.';
comment on constraint rooms_session_mode on public.rooms is 'Sessions are hosted or run in DJ turns';
comment on constraint rooms_dj_turn_max_seconds_range on public.rooms is 'Turns last between 1 and 60 minutes';
comment on constraint rooms_skip_share_range on public.rooms is 'The share to skip is between 10% and 100%';

-- The owner alone sets how sessions run (the columns are not granted: only this function writes them).
create function public.set_session_rules(room_id uuid, mode text, turn_max_seconds integer, share numeric)
returns public.rooms
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.rooms;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change the room' using errcode = '42501';
  end if;
  if (select private.room_role(set_session_rules.room_id)) is distinct from 'owner' then
    raise exception 'Only the owner decides how listening sessions run' using errcode = '42501';
  end if;
  if mode is null or mode not in ('host', 'dj_turns') then
    raise exception 'Choose hosted sessions or DJ turns' using errcode = '22023';
  end if;
  if turn_max_seconds is null or turn_max_seconds < 60 or turn_max_seconds > 3600 then
    raise exception 'Turns last between 1 and 60 minutes' using errcode = '22023';
  end if;
  if share is null or share < 0.1 or share > 1 then
    raise exception 'The share to skip is between 10%% and 100%%' using errcode = '22023';
  end if;
  update public.rooms r
    set session_mode = set_session_rules.mode,
        dj_turn_max_seconds = set_session_rules.turn_max_seconds,
        skip_share = round(set_session_rules.share, 2)
    where r.id = set_session_rules.room_id
    returning * into changed;
  return changed;
end;
$$;

comment on function public.set_session_rules(uuid, text, integer, numeric) is 'Owner only: hosted sessions or DJ turns, the longest turn (s), and the share of listeners whose votes skip a track.';
revoke all on function public.set_session_rules(uuid, text, integer, numeric) from public, anon;
grant execute on function public.set_session_rules(uuid, text, integer, numeric) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 2. The session's turn, waitlist and tally
-- ---------------------------------------------------------------------------------------------
alter table public.listening_sessions
  add column mode text not null default 'host',
  add column track bigint not null default 1,
  add column turn bigint not null default 0,
  add column turn_ends_at timestamptz not null default 'epoch',
  add column dj_waitlist jsonb not null default '[]'::jsonb,
  add column skip_votes integer not null default 0,
  add column skip_needed integer not null default 0,
  add column skip_voters uuid[] not null default '{}',
  add constraint listening_sessions_mode check (mode in ('host', 'dj_turns')),
  add constraint listening_sessions_waitlist_shape check (jsonb_typeof(dj_waitlist) = 'array' and jsonb_array_length(dj_waitlist) <= 50),
  add constraint listening_sessions_skip_tally check (skip_votes >= 0 and skip_needed >= 0);

comment on column public.listening_sessions.mode is 'hosted (host) or DJ turns (dj_turns), from the room when the session started.';
comment on column public.listening_sessions.track is 'Which track plays: moves on with every new post or turn (votes to skip are per track).';
comment on column public.listening_sessions.turn is 'DJ turns: how many turns have started (the DJ is host_id).';
comment on column public.listening_sessions.turn_ends_at is 'DJ turns: when the current turn runs out (the epoch: nobody is playing).';
comment on column public.listening_sessions.dj_waitlist is 'DJ turns: who plays next, in order: [{user_id, post_id}] (post_id null: not picked yet).';
comment on column public.listening_sessions.skip_votes is 'Votes to skip the current track.';
comment on column public.listening_sessions.skip_needed is 'Votes that skip the current track, fixed by its first vote (0: no vote yet).';
comment on column public.listening_sessions.skip_voters is 'Who voted to skip the current track.';
comment on constraint listening_sessions_waitlist_shape on public.listening_sessions is 'The waitlist holds up to 50 DJs';

-- Who may vote on a track (fixed by its first vote), and their votes: one row per person and track.
create table public.session_skip_ballots (
  session_id uuid not null references public.listening_sessions (id) on delete cascade,
  track bigint not null,
  user_id uuid not null references public.profiles (id) on delete cascade,
  voted_at timestamptz,
  constraint session_skip_ballots_pkey primary key (session_id, track, user_id)
);
comment on table public.session_skip_ballots is 'The people who may vote to skip a session''s track (fixed when its first vote came) and when each voted.';
create index session_skip_ballots_user_idx on public.session_skip_ballots (user_id);
alter table public.session_skip_ballots enable row level security;
revoke all on public.session_skip_ballots from anon, authenticated;
grant select on public.session_skip_ballots to authenticated;
create policy "people read their own ballots" on public.session_skip_ballots
  for select to authenticated using (user_id = (select auth.uid()));

-- Set by the functions below while they change the turn (and only for that change).
create function private.turns_changing(on_off boolean)
returns void
language sql
set search_path = ''
as $$ select null::void from (select set_config('cuepoint.turns', case when on_off then 'on' else '' end, true)) s $$;
revoke all on function private.turns_changing(boolean) from public, anon, authenticated;

-- A new session takes the room's mode; in DJ turns it starts with nobody playing.
create function private.session_mode_from_room()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.mode := coalesce((select r.session_mode from public.rooms r where r.id = new.room_id), 'host');
  if new.mode = 'dj_turns' then
    new.host_id := null;
    new.post_id := null;
    new.playing := false;
    new.position_seconds := 0;
  end if;
  return new;
end;
$$;
revoke all on function private.session_mode_from_room() from public, anon, authenticated;
create trigger listening_sessions_mode
  before insert on public.listening_sessions
  for each row execute function private.session_mode_from_room();

-- In DJ turns, who plays and what is the waitlist's to say: outside the turn functions nobody hands
-- the place over or loads another post. Any new post or turn is a new track, with no votes yet.
create function private.guard_turns()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.mode := old.mode;
  if old.mode = 'dj_turns' and old.ended_at is null and new.ended_at is null
     and coalesce(current_setting('cuepoint.turns', true), '') <> 'on' then
    if new.host_id is not null and new.host_id is distinct from old.host_id then
      raise exception 'In DJ turns, the waitlist decides who plays' using errcode = '42501';
    end if;
    if new.post_id is not null and new.post_id is distinct from old.post_id then
      raise exception 'Each turn plays the post its DJ picked' using errcode = '42501';
    end if;
  end if;
  if new.post_id is distinct from old.post_id or new.turn is distinct from old.turn then
    new.track := old.track + 1;
  end if;
  if new.track is distinct from old.track then
    new.skip_votes := 0;
    new.skip_needed := 0;
    new.skip_voters := '{}';
  end if;
  return new;
end;
$$;
revoke all on function private.guard_turns() from public, anon, authenticated;
-- Runs before listening_sessions_version (trigger order is by name).
create trigger listening_sessions_turns
  before update on public.listening_sessions
  for each row execute function private.guard_turns();

-- A change of the waitlist, the turn or the tally is a new version too (so the channel carries it).
create function private.version_turns()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.version = old.version
     and (new.track, new.turn, new.turn_ends_at, new.dj_waitlist, new.skip_votes, new.skip_needed, new.skip_voters)
       is distinct from (old.track, old.turn, old.turn_ends_at, old.dj_waitlist, old.skip_votes, old.skip_needed, old.skip_voters) then
    new.version := old.version + 1;
  end if;
  return new;
end;
$$;
revoke all on function private.version_turns() from public, anon, authenticated;
-- Runs after listening_sessions_version.
create trigger listening_sessions_versioned_turns
  before update on public.listening_sessions
  for each row execute function private.version_turns();

-- In DJ turns each DJ picks their own post: the session's queue is not used. (The newest posts a
-- start queues are left out quietly; anyone else is told.)
create function private.queue_not_in_dj_turns()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent public.listening_sessions;
begin
  select * into parent from public.listening_sessions s where s.id = new.session_id;
  if found and parent.mode = 'dj_turns' then
    if parent.started_at = now() and parent.started_by = (select auth.uid()) then
      return null;
    end if;
    raise exception 'In DJ turns, each DJ picks their own post — join the waitlist' using errcode = 'PT409';
  end if;
  return new;
end;
$$;
revoke all on function private.queue_not_in_dj_turns() from public, anon, authenticated;
-- Runs before session_queue_from_session.
create trigger session_queue_dj_turns
  before insert on public.session_queue
  for each row execute function private.queue_not_in_dj_turns();

-- ---------------------------------------------------------------------------------------------
-- 3. Who is in the session
-- ---------------------------------------------------------------------------------------------
-- A member with a page in the session now (a fresh presence row of theirs in it); `following`:
-- and that page follows the session rather than listening on its own.
create function private.in_session(target public.listening_sessions, person uuid, following boolean default false)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_current_member(target.room_id, person) and exists (
    select 1 from public.presence p
    where p.room_id = target.room_id and p.user_id = person and p.session_id = target.id
      and p.seen_at > clock_timestamp() - private.presence_lifetime()
      and (p.following or not in_session.following)
  );
$$;
revoke all on function private.in_session(public.listening_sessions, uuid, boolean) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- 4. Turns
-- ---------------------------------------------------------------------------------------------
-- A post a DJ may pick: the room's, and no longer than a turn.
create function private.checked_pick(target public.listening_sessions, pick uuid)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  post_room uuid;
  seconds numeric;
  max_seconds integer := (select r.dj_turn_max_seconds from public.rooms r where r.id = target.room_id);
begin
  if pick is null then
    raise exception 'Pick a post to play on your turn' using errcode = '22023';
  end if;
  select p.room_id, p.duration_seconds into post_room, seconds from public.posts p where p.id = pick;
  if post_room is distinct from target.room_id then
    raise exception 'That post isn''t in this room' using errcode = '23503';
  end if;
  if seconds is not null and seconds > max_seconds then
    raise exception 'Turns last up to % in this room — pick a shorter post',
      case when max_seconds % 60 = 0 then (max_seconds / 60) || ' minute' || case when max_seconds = 60 then '' else 's' end
           else max_seconds || ' seconds' end
      using errcode = '22023';
  end if;
  return pick;
end;
$$;
revoke all on function private.checked_pick(public.listening_sessions, uuid) from public, anon, authenticated;

-- The current turn ends (the DJ goes to the back of the list to pick again, unless `dj_stays` is
-- false: they left) and the next DJ's starts: the first one in the list with a post picked who is
-- still in the session. People no longer in the session leave the list as the turn passes them.
-- The caller holds the session's row lock.
create function private.pass_turn(target public.listening_sessions, dj_stays boolean)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  waitlist jsonb := target.dj_waitlist;
  kept jsonb := '[]'::jsonb;
  chosen jsonb;
  entry jsonb;
  person uuid;
  max_seconds integer := (select r.dj_turn_max_seconds from public.rooms r where r.id = target.room_id);
  changed public.listening_sessions;
begin
  if dj_stays and target.host_id is not null and private.in_session(target, target.host_id)
     and not exists (select 1 from jsonb_array_elements(waitlist) e where e ->> 'user_id' = target.host_id::text) then
    waitlist := waitlist || jsonb_build_array(jsonb_build_object('user_id', target.host_id, 'post_id', null));
  end if;
  for entry in select e from jsonb_array_elements(waitlist) e loop
    person := (entry ->> 'user_id')::uuid;
    if not private.in_session(target, person) then
      continue;
    end if;
    if chosen is null and entry ->> 'post_id' is not null
       and exists (select 1 from public.posts p where p.id = (entry ->> 'post_id')::uuid and p.room_id = target.room_id) then
      chosen := entry;
      continue;
    end if;
    kept := kept || jsonb_build_array(entry);
  end loop;
  perform private.turns_changing(true);
  if chosen is not null then
    update public.listening_sessions s
      set host_id = (chosen ->> 'user_id')::uuid,
          post_id = (chosen ->> 'post_id')::uuid,
          position_seconds = 0,
          playing = true,
          rate = 1,
          state_at = clock_timestamp(),
          host_seen_at = clock_timestamp(),
          turn = s.turn + 1,
          turn_ends_at = clock_timestamp() + make_interval(secs => max_seconds),
          dj_waitlist = kept
      where s.id = target.id
      returning * into changed;
  else
    update public.listening_sessions s
      set host_id = null,
          post_id = null,
          position_seconds = 0,
          playing = false,
          state_at = clock_timestamp(),
          turn_ends_at = 'epoch',
          dj_waitlist = kept
      where s.id = target.id
      returning * into changed;
  end if;
  perform private.turns_changing(false);
  return changed;
end;
$$;
revoke all on function private.pass_turn(public.listening_sessions, boolean) from public, anon, authenticated;

-- The waitlist changes (nobody's turn starts or ends); when nobody is playing, the next turn starts.
create function private.set_waitlist(target public.listening_sessions, waitlist jsonb)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.listening_sessions;
begin
  perform private.turns_changing(true);
  update public.listening_sessions s set dj_waitlist = waitlist where s.id = target.id returning * into changed;
  perform private.turns_changing(false);
  if changed.host_id is null then
    changed := private.pass_turn(changed, false);
  end if;
  return changed;
end;
$$;
revoke all on function private.set_waitlist(public.listening_sessions, jsonb) from public, anon, authenticated;

-- A live DJ-turns session the caller is a member of, locked for the change.
create function private.dj_session_for_change(target_session uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(target_session);
begin
  if found_session.mode <> 'dj_turns' then
    raise exception 'This session has a host — DJ turns are off' using errcode = 'PT409';
  end if;
  return found_session;
end;
$$;
revoke all on function private.dj_session_for_change(uuid) from public, anon, authenticated;

-- Where the person is in the waitlist (1-based), or null.
create function private.waitlist_place(waitlist jsonb, person uuid)
returns integer
language sql
immutable
set search_path = ''
as $$
  select min(e.place)::integer from jsonb_array_elements(waitlist) with ordinality as e(entry, place) where e.entry ->> 'user_id' = person::text;
$$;
revoke all on function private.waitlist_place(jsonb, uuid) from public, anon, authenticated;

create function private.without_person(waitlist jsonb, person uuid)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(e.entry order by e.place), '[]'::jsonb)
  from jsonb_array_elements(waitlist) with ordinality as e(entry, place) where e.entry ->> 'user_id' <> person::text;
$$;
revoke all on function private.without_person(jsonb, uuid) from public, anon, authenticated;

-- A member joins the waitlist with the post they will play (a turn starts at once when nobody plays).
create function public.join_dj_waitlist(session_id uuid, post_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions := private.dj_session_for_change(join_dj_waitlist.session_id);
begin
  if found_session.host_id = caller then
    raise exception 'It''s your turn now — pick your next post once it ends' using errcode = 'PT409';
  end if;
  if private.waitlist_place(found_session.dj_waitlist, caller) is not null then
    raise exception 'You''re already on the waitlist' using errcode = 'PT409';
  end if;
  if not private.in_session(found_session, caller) then
    raise exception 'Open the session to join the waitlist' using errcode = 'PT409';
  end if;
  if jsonb_array_length(found_session.dj_waitlist) >= 50 then
    raise exception 'The waitlist holds up to 50 DJs' using errcode = '23514';
  end if;
  return private.set_waitlist(found_session,
    found_session.dj_waitlist || jsonb_build_array(jsonb_build_object('user_id', caller, 'post_id', private.checked_pick(found_session, join_dj_waitlist.post_id))));
end;
$$;

-- A DJ on the waitlist picks (or changes) the post for their next turn.
create function public.pick_dj_post(session_id uuid, post_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions := private.dj_session_for_change(pick_dj_post.session_id);
  place integer := private.waitlist_place(found_session.dj_waitlist, caller);
begin
  if place is null then
    raise exception 'Join the waitlist to pick a post' using errcode = 'PT409';
  end if;
  return private.set_waitlist(found_session,
    jsonb_set(found_session.dj_waitlist, array[(place - 1)::text, 'post_id'], to_jsonb(private.checked_pick(found_session, pick_dj_post.post_id))));
end;
$$;

-- The caller leaves the waitlist; a DJ leaving mid-turn passes the turn on.
create function public.leave_dj_waitlist(session_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions := private.dj_session_for_change(leave_dj_waitlist.session_id);
begin
  if found_session.host_id = caller then
    return private.pass_turn(found_session, false);
  end if;
  if private.waitlist_place(found_session.dj_waitlist, caller) is null then
    raise exception 'You''re not on the waitlist' using errcode = 'PT409';
  end if;
  return private.set_waitlist(found_session, private.without_person(found_session.dj_waitlist, caller));
end;
$$;

-- Moderators and the owner move a DJ to a place in the waitlist (1 is next).
create function public.move_dj(session_id uuid, dj_id uuid, place integer)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.dj_session_for_change(move_dj.session_id);
  current_place integer := private.waitlist_place(found_session.dj_waitlist, move_dj.dj_id);
  rest jsonb;
  target_place integer;
begin
  if (select private.room_role(found_session.room_id)) not in ('owner', 'moderator') then
    raise exception 'Only moderators and the owner reorder the waitlist' using errcode = '42501';
  end if;
  if current_place is null then
    raise exception 'That person isn''t on the waitlist' using errcode = 'PT409';
  end if;
  if move_dj.place is null then
    raise exception 'Say where in the waitlist to move them' using errcode = '22023';
  end if;
  rest := private.without_person(found_session.dj_waitlist, move_dj.dj_id);
  target_place := least(greatest(move_dj.place, 1), jsonb_array_length(rest) + 1);
  return private.set_waitlist(found_session, (
    select coalesce(jsonb_agg(x.entry order by x.place), '[]'::jsonb)
    from (
      select e.entry, case when e.place < target_place then e.place else e.place + 1 end as place
      from jsonb_array_elements(rest) with ordinality as e(entry, place)
      union all
      select found_session.dj_waitlist -> (current_place - 1), target_place
    ) x
  ));
end;
$$;

-- Moderators and the owner take a DJ off the waitlist (the DJ playing now: their turn ends).
create function public.remove_dj(session_id uuid, dj_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.dj_session_for_change(remove_dj.session_id);
begin
  if (select private.room_role(found_session.room_id)) not in ('owner', 'moderator') then
    raise exception 'Only moderators and the owner take DJs off the waitlist' using errcode = '42501';
  end if;
  if found_session.host_id = remove_dj.dj_id then
    return private.pass_turn(found_session, false);
  end if;
  if private.waitlist_place(found_session.dj_waitlist, remove_dj.dj_id) is null then
    raise exception 'That person isn''t on the waitlist' using errcode = 'PT409';
  end if;
  return private.set_waitlist(found_session, private.without_person(found_session.dj_waitlist, remove_dj.dj_id));
end;
$$;

-- Anyone in the session says turn `turn` has run out: it passes when its time is up (so every page
-- may ask, and the turn passes once). Answers the session as it then is.
create function public.end_dj_turn_if_over(session_id uuid, turn bigint)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.dj_session_for_change(end_dj_turn_if_over.session_id);
begin
  if found_session.turn <> end_dj_turn_if_over.turn or found_session.host_id is null
     or found_session.turn_ends_at > clock_timestamp() then
    return found_session;
  end if;
  return private.pass_turn(found_session, true);
end;
$$;

-- "Next" in DJ turns ends the DJ's turn (the post ended, or they moved on); otherwise as before.
create or replace function public.play_next_in_session(session_id uuid, after_post_id uuid, at timestamptz default null)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(play_next_in_session.session_id);
  next_entry public.session_queue;
begin
  if found_session.mode = 'dj_turns' then
    if found_session.host_id is distinct from (select auth.uid()) then
      raise exception 'It''s not your turn' using errcode = '42501';
    end if;
    if found_session.post_id is distinct from play_next_in_session.after_post_id then
      return found_session;
    end if;
    return private.pass_turn(found_session, true);
  end if;
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

-- Claiming the host's place: in DJ turns, a DJ who went quiet (or stopped being a member) has left,
-- and the turn passes instead; with nobody playing there is nothing to claim. Otherwise as before.
create or replace function public.claim_session_host(session_id uuid, expected_host_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions;
begin
  if caller is null then
    raise exception 'Sign in to listen together' using errcode = '42501';
  end if;
  select * into found_session from public.listening_sessions s where s.id = claim_session_host.session_id for update;
  if not found or (select private.room_role(found_session.room_id)) is null then
    raise exception 'Only members of the room can take part in its session' using errcode = '42501';
  end if;
  -- Ended (now, or before): the ended row says so.
  if found_session.ended_at is null and private.session_is_over(found_session) then
    perform private.end_session_if_over(found_session.room_id);
    select * into found_session from public.listening_sessions s where s.id = found_session.id;
  end if;
  if found_session.ended_at is not null or found_session.host_id = caller then
    return found_session;
  end if;
  -- Someone else hosts now, or the host is still here: the row names who hosts.
  if found_session.host_id is distinct from claim_session_host.expected_host_id
     or (found_session.host_id is not null
         and found_session.host_seen_at >= clock_timestamp() - private.host_quiet_after()
         and private.is_current_member(found_session.room_id, found_session.host_id)) then
    return found_session;
  end if;
  if found_session.mode = 'dj_turns' then
    if found_session.host_id is null then
      return found_session;
    end if;
    return private.pass_turn(found_session, false);
  end if;
  update public.listening_sessions s set host_id = caller, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

-- A DJ whose membership ends leaves the waitlist; if it is their turn, it passes.
create function private.dj_leaves_with_membership()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions;
begin
  for found_session in
    select * from public.listening_sessions s
    where s.room_id = old.room_id and s.ended_at is null and s.mode = 'dj_turns'
      -- (not when the room itself is going)
      and exists (select 1 from public.rooms r where r.id = old.room_id)
      and (s.host_id = old.user_id or private.waitlist_place(s.dj_waitlist, old.user_id) is not null)
    for update
  loop
    if found_session.host_id = old.user_id then
      perform private.pass_turn(found_session, false);
    else
      perform private.turns_changing(true);
      update public.listening_sessions s set dj_waitlist = private.without_person(s.dj_waitlist, old.user_id) where s.id = found_session.id;
      perform private.turns_changing(false);
    end if;
  end loop;
  return null;
end;
$$;
revoke all on function private.dj_leaves_with_membership() from public, anon, authenticated;
create trigger memberships_dj_leaves
  after delete on public.memberships
  for each row execute function private.dj_leaves_with_membership();

-- ---------------------------------------------------------------------------------------------
-- 5. Voting to skip
-- ---------------------------------------------------------------------------------------------
-- The track is skipped: the turn passes (DJ turns), or the next queued post plays (nothing queued:
-- nothing plays). The caller holds the session's row lock.
create function private.skip_track(target public.listening_sessions)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  next_entry public.session_queue;
  changed public.listening_sessions;
begin
  if target.mode = 'dj_turns' then
    return private.pass_turn(target, true);
  end if;
  select * into next_entry from public.session_queue q
    where q.session_id = target.id and q.status = 'queued'
    order by q.sort_key, q.created_at
    limit 1;
  if found then
    delete from public.session_queue q where q.id = next_entry.id;
  end if;
  update public.listening_sessions s
    set post_id = next_entry.post_id, position_seconds = 0, playing = next_entry.post_id is not null, state_at = clock_timestamp()
    where s.id = target.id
    returning * into changed;
  return changed;
end;
$$;
revoke all on function private.skip_track(public.listening_sessions) from public, anon, authenticated;

-- A listener votes to skip track `track` (the one their page shows). Answers the session as it then
-- is: the tally counted, or the next track playing when this vote reached the share.
create function public.vote_to_skip(session_id uuid, track bigint)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions := private.live_session_for_change(vote_to_skip.session_id);
  share numeric := (select r.skip_share from public.rooms r where r.id = found_session.room_id);
  needed integer := found_session.skip_needed;
  eligible integer;
  counted integer;
begin
  if found_session.post_id is null then
    raise exception 'Nothing is playing to skip' using errcode = 'PT409';
  end if;
  if vote_to_skip.track is distinct from found_session.track then
    raise exception 'That track has already moved on' using errcode = 'PT409';
  end if;
  if found_session.host_id = caller then
    raise exception '%', case when found_session.mode = 'dj_turns' then 'It''s your turn — press Next to move on'
                              else 'You''re the host — press Next to skip' end
      using errcode = 'PT409';
  end if;
  if not private.in_session(found_session, caller, true) then
    raise exception 'Only people listening along can vote' using errcode = '42501';
  end if;
  if needed = 0 then
    -- The first vote on this track: who may vote is who listens along now.
    insert into public.session_skip_ballots (session_id, track, user_id)
    select found_session.id, found_session.track, m.user_id
    from public.memberships m
    where m.room_id = found_session.room_id and m.user_id is distinct from found_session.host_id
      and private.in_session(found_session, m.user_id, true)
    on conflict do nothing;
    select count(*) into eligible from public.session_skip_ballots b where b.session_id = found_session.id and b.track = found_session.track;
    needed := greatest(1, ceil(eligible * share)::integer);
  end if;
  update public.session_skip_ballots b set voted_at = clock_timestamp()
    where b.session_id = found_session.id and b.track = found_session.track and b.user_id = caller and b.voted_at is null;
  get diagnostics counted = row_count;
  if counted = 0 then
    if exists (select 1 from public.session_skip_ballots b where b.session_id = found_session.id and b.track = found_session.track and b.user_id = caller) then
      raise exception 'You already voted on this track' using errcode = '23505';
    end if;
    raise exception 'You joined after this vote started — you can vote on the next track' using errcode = 'PT409';
  end if;
  if found_session.skip_votes + 1 >= needed then
    return private.skip_track(found_session);
  end if;
  update public.listening_sessions s
    set skip_votes = s.skip_votes + 1, skip_needed = needed, skip_voters = s.skip_voters || caller
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.join_dj_waitlist(uuid, uuid) is 'DJ turns: the caller joins the waitlist with the post they will play.';
comment on function public.pick_dj_post(uuid, uuid) is 'DJ turns: the caller changes the post for their next turn.';
comment on function public.leave_dj_waitlist(uuid) is 'DJ turns: the caller leaves the waitlist (their turn, if it is theirs, passes).';
comment on function public.move_dj(uuid, uuid, integer) is 'DJ turns, moderators and the owner: moves a DJ to a place in the waitlist.';
comment on function public.remove_dj(uuid, uuid) is 'DJ turns, moderators and the owner: takes a DJ off the waitlist (ends their turn if it is theirs).';
comment on function public.end_dj_turn_if_over(uuid, bigint) is 'DJ turns: passes the turn when its time is up; answers the session.';
comment on function public.vote_to_skip(uuid, bigint) is 'A listener following the session votes to skip the track; the vote that reaches the room''s share skips it.';

revoke all on function public.join_dj_waitlist(uuid, uuid) from public, anon;
revoke all on function public.pick_dj_post(uuid, uuid) from public, anon;
revoke all on function public.leave_dj_waitlist(uuid) from public, anon;
revoke all on function public.move_dj(uuid, uuid, integer) from public, anon;
revoke all on function public.remove_dj(uuid, uuid) from public, anon;
revoke all on function public.end_dj_turn_if_over(uuid, bigint) from public, anon;
revoke all on function public.vote_to_skip(uuid, bigint) from public, anon;
grant execute on function public.join_dj_waitlist(uuid, uuid) to authenticated, service_role;
grant execute on function public.pick_dj_post(uuid, uuid) to authenticated, service_role;
grant execute on function public.leave_dj_waitlist(uuid) to authenticated, service_role;
grant execute on function public.move_dj(uuid, uuid, integer) to authenticated, service_role;
grant execute on function public.remove_dj(uuid, uuid) to authenticated, service_role;
grant execute on function public.end_dj_turn_if_over(uuid, bigint) to authenticated, service_role;
grant execute on function public.vote_to_skip(uuid, bigint) to authenticated, service_role;
