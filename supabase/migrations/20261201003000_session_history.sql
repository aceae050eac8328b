-- Replays of ended listening sessions.
--
-- A session's row holds only its playback as it is now; to replay a session "as live" after it has
-- ended, the database keeps what it played: `public.session_history`, one row per stretch of
-- playback — one post, played from one position at one rate (or paused there), from `started_at`
-- until the next change of the state (`ended_at`). The rows are written only by a trigger on the
-- session's row (whenever the post, the position, playing/paused, the rate or the state's time
-- change, and when the session ends), so nobody — not the host, not the server's service role — can
-- write a history that did not happen. Comments and reactions need nothing new: comments made during
-- a session carry its id (`moments.session_id`) and both have their `created_at`.
--
-- Who reads it: exactly whoever may read the room (private.can_read_room_content: anyone for a public
-- room; a gated room's members while their membership counts — not a lapsed, removed or banned one).
-- Deleting a post removes it from every replay (the rows go with it); a post hidden by reports stays
-- out of replays for those who may not read it, since the page reads the posts under their own rule.

create table public.session_history (
  id bigint generated always as identity primary key,
  session_id uuid not null references public.listening_sessions (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  post_id uuid not null references public.posts (id) on delete cascade,
  -- Server time this stretch began, and when the next one took over (null while it lasts).
  started_at timestamptz not null,
  ended_at timestamptz,
  -- Where in the post it began, whether it played from there, and at what speed.
  position_seconds double precision not null,
  playing boolean not null,
  rate double precision not null,
  -- Who hosted when it began.
  played_by uuid references public.profiles (id) on delete set null,
  constraint session_history_ends_after_start check (ended_at is null or ended_at >= started_at)
);

comment on table public.session_history is
  'What a listening session played, for its replay: one row per stretch of one post from one position (playing or paused, at a rate). Written only by the database.';

create index session_history_session_idx on public.session_history (session_id, started_at, id);
create index session_history_room_id_idx on public.session_history (room_id);
create index session_history_post_id_idx on public.session_history (post_id);
create index session_history_played_by_idx on public.session_history (played_by);

alter table public.session_history enable row level security;

revoke all on public.session_history from public, anon, authenticated, service_role;
grant select on public.session_history to anon, authenticated, service_role;

create policy "A session's history is readable by whoever may read the room"
  on public.session_history for select
  to anon, authenticated
  using ((select private.can_read_room_content(session_history.room_id)));

-- ---------------------------------------------------------------------------------------------
-- Writing it: the session's own changes, nothing else
-- ---------------------------------------------------------------------------------------------
create function private.record_session_history()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  closes_at timestamptz;
begin
  if tg_op = 'UPDATE'
     and (new.post_id, new.position_seconds, new.playing, new.rate, new.state_at, new.ended_at)
         is not distinct from (old.post_id, old.position_seconds, old.playing, old.rate, old.state_at, old.ended_at) then
    return null;
  end if;
  -- The stretch that was playing ends when the new state begins (or when the session ended).
  closes_at := coalesce(new.ended_at, new.state_at);
  update public.session_history h
    set ended_at = greatest(h.started_at, closes_at)
    where h.session_id = new.id and h.ended_at is null;
  if new.ended_at is null and new.post_id is not null then
    insert into public.session_history (session_id, room_id, post_id, started_at, position_seconds, playing, rate, played_by)
    values (new.id, new.room_id, new.post_id, new.state_at, new.position_seconds, new.playing, new.rate, new.host_id);
  end if;
  return null;
end;
$$;

comment on function private.record_session_history() is
  'Keeps public.session_history: closes the stretch that was playing and opens the one the session''s new state begins.';
revoke all on function private.record_session_history() from public, anon, authenticated, service_role;

create trigger listening_sessions_record_history
  after insert or update on public.listening_sessions
  for each row execute function private.record_session_history();

-- ---------------------------------------------------------------------------------------------
-- The room page's "Replay" list: its recent ended sessions, as the caller may read them
-- ---------------------------------------------------------------------------------------------
create function public.session_replays(room_id uuid, max_count integer default 3)
returns table (session_id uuid, started_at timestamptz, ended_at timestamptz, tracks integer, comments integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select s.id, s.started_at, s.ended_at,
    (select count(*)::integer from (
       select h.post_id, lag(h.post_id) over (order by h.started_at, h.id) as before
       from public.session_history h
       join public.posts p on p.id = h.post_id
       where h.session_id = s.id
     ) played where played.before is distinct from played.post_id),
    (select count(*)::integer from public.moments m
       where m.session_id = s.id and m.parent_id is null and m.deleted_at is null)
  from public.listening_sessions s
  where s.room_id = session_replays.room_id
    and s.ended_at is not null
    and exists (select 1 from public.session_history h where h.session_id = s.id)
  order by s.ended_at desc
  limit least(greatest(coalesce(max_count, 3), 1), 20);
$$;

comment on function public.session_replays(uuid, integer) is
  'The room''s most recent ended sessions that played something (at most 20), with how many tracks and comments the caller may see. Security invoker: the tables'' own read rules decide.';
revoke all on function public.session_replays(uuid, integer) from public;
grant execute on function public.session_replays(uuid, integer) to anon, authenticated, service_role;
