-- Ready check. Before a track starts, the host's page waits until everyone following has buffered
-- its first seconds, or until the host's timeout, and then says who was not ready.
--
-- The host's choice (how long to wait, and whether to check before every track and not only when
-- the session starts) is kept with the session, so it survives a reload and a new host. Readiness
-- is advisory: a member's page records that it is ready (as the caller, never as anyone else) and
-- the database tells the session's channel (event `ready`); only the host's page acts on it, and
-- it counts only the people it sees following.

alter table public.listening_sessions
  add column ready_check_seconds smallint not null default 10,
  add column ready_check_each_track boolean not null default false,
  add constraint listening_sessions_ready_check_seconds check (ready_check_seconds in (0, 5, 10, 30));

comment on column public.listening_sessions.ready_check_seconds is
  'How long the host''s page waits for everyone following to be ready before a track starts (s); 0: no ready check.';
comment on column public.listening_sessions.ready_check_each_track is
  'Whether the ready check runs before every track, not only when the session starts.';

create table public.session_readiness (
  session_id uuid not null references public.listening_sessions (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  post_id uuid not null references public.posts (id) on delete cascade,
  position_seconds double precision not null,
  ready_at timestamptz not null default now(),
  primary key (session_id, user_id, post_id),
  constraint session_readiness_position_range check (position_seconds >= 0 and position_seconds <= 172800)
);

comment on table public.session_readiness is
  'Who said their player had buffered which post of a session, at which position: advice for the host''s ready check.';

create index session_readiness_room_id_idx on public.session_readiness (room_id);
create index session_readiness_user_id_idx on public.session_readiness (user_id);
create index session_readiness_post_id_idx on public.session_readiness (post_id);

alter table public.session_readiness enable row level security;

revoke all on public.session_readiness from anon, authenticated;
grant select on public.session_readiness to authenticated;

create policy "Readiness is readable by the room's members"
  on public.session_readiness for select
  to authenticated
  using ((select private.room_role(room_id)) is not null);

-- A member's page is ready for `post_id` at `position_seconds`: recorded as the caller, and told
-- to the session's channel when it is news (a first mark for the post, or a new position).
create function public.mark_session_ready(session_id uuid, post_id uuid, position_seconds double precision)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions;
  ready timestamptz := clock_timestamp();
  earlier double precision;
  topic text;
begin
  if caller is null then
    raise exception 'Sign in to listen together' using errcode = '42501';
  end if;
  select * into found_session from public.listening_sessions s where s.id = mark_session_ready.session_id;
  if not found or (select private.room_role(found_session.room_id)) is null then
    raise exception 'Only members of the room can take part in its session' using errcode = '42501';
  end if;
  if found_session.ended_at is not null then
    raise exception 'This session has ended' using errcode = 'PT409';
  end if;
  if mark_session_ready.post_id is null
     or not exists (select 1 from public.posts p where p.id = mark_session_ready.post_id and p.room_id = found_session.room_id) then
    raise exception 'That post isn''t in this room' using errcode = '22023';
  end if;
  if mark_session_ready.position_seconds is null or mark_session_ready.position_seconds = 'NaN'::double precision
     or mark_session_ready.position_seconds < 0 or mark_session_ready.position_seconds > 172800 then
    raise exception 'Give the position your player is ready at, in seconds' using errcode = '22023';
  end if;

  select r.position_seconds into earlier
    from public.session_readiness r
    where r.session_id = found_session.id and r.user_id = caller and r.post_id = mark_session_ready.post_id;
  insert into public.session_readiness as r (session_id, room_id, user_id, post_id, position_seconds, ready_at)
    values (found_session.id, found_session.room_id, caller, mark_session_ready.post_id, mark_session_ready.position_seconds, ready)
    on conflict on constraint session_readiness_pkey
    do update set position_seconds = excluded.position_seconds, ready_at = excluded.ready_at;

  if earlier is null or abs(earlier - mark_session_ready.position_seconds) >= 0.5 then
    topic := private.current_room_topic('session', found_session.room_id);
    if topic is not null then
      perform realtime.send(
        jsonb_build_object(
          'session_id', found_session.id,
          'user_id', caller,
          'post_id', mark_session_ready.post_id,
          'position_seconds', mark_session_ready.position_seconds,
          'ready_at', ready
        ),
        'ready',
        topic,
        true
      );
    end if;
  end if;
  return ready;
end;
$$;

comment on function public.mark_session_ready(uuid, uuid, double precision) is
  'Any member: their player has buffered this post of the session at this position (advice for the host''s ready check).';

revoke all on function public.mark_session_ready(uuid, uuid, double precision) from public, anon;
grant execute on function public.mark_session_ready(uuid, uuid, double precision) to authenticated, service_role;

-- The host's choice: how long to wait (0: no ready check) and whether to check before every track.
-- A new version, so every page (and a later host) has it.
create function public.set_session_ready_check(session_id uuid, seconds integer, each_track boolean)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(set_session_ready_check.session_id);
begin
  if found_session.host_id is distinct from (select auth.uid()) then
    raise exception 'Only the host sets the ready check' using errcode = '42501';
  end if;
  if set_session_ready_check.seconds is null or set_session_ready_check.seconds not in (0, 5, 10, 30) then
    raise exception 'Wait 5, 10 or 30 seconds for everyone, or don''t check' using errcode = '22023';
  end if;
  if set_session_ready_check.each_track is null then
    raise exception 'Say whether to check before every track' using errcode = '22023';
  end if;
  update public.listening_sessions s
    set ready_check_seconds = set_session_ready_check.seconds,
        ready_check_each_track = set_session_ready_check.each_track,
        version = s.version + 1
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.set_session_ready_check(uuid, integer, boolean) is
  'Host only: how long the ready check waits for everyone (0, 5, 10 or 30 s; 0: none) and whether it runs before every track.';

revoke all on function public.set_session_ready_check(uuid, integer, boolean) from public, anon;
grant execute on function public.set_session_ready_check(uuid, integer, boolean) to authenticated, service_role;
