-- The listening session, finished: a session nobody follows ends (and the room stops announcing
-- it), losing the race for the host's place is an answer rather than an error, and a new session
-- can start with the room's recent posts queued.
--
-- 1. When a session is over. Before, a session whose host had been quiet for
--    `private.session_idle_after()` was over only in the eyes of whoever next started or claimed one:
--    the row kept `ended_at` null, so a room everyone had left went on reading "Listening together
--    now". Now the rule is one function, `private.session_is_over`: no heartbeat from the host and no
--    page in the session (a fresh presence row naming it) for `session_idle_after()`. It is applied
--    whenever anyone reads the room's live sessions through `public.live_sessions` (the room page's
--    banner, the listening page's load, the home page), when a session is started and when the host's
--    place is claimed — so it holds on hosted Supabase without a scheduler. Ending is an update, so
--    the database broadcasts the ended row on the session's channel and every open page hears it.
--
-- 2. Claiming the host's place. Losing the race is the expected outcome for every follower but one,
--    and raising it made each of those pages log a failed request (409). Now `claim_session_host`
--    answers the session's row in every expected case: the caller's own place (they host), someone
--    else's (they host now, or the host is still here — the row names them), an ended session (the
--    ended row). The page reads the answer (lib/sessions/succession.ts). Refusals stay for what is
--    not expected: signed out, not a member (42501).
--
-- 3. The room's recent posts as the queue. `start_listening_session` takes `queue_recent`: how many
--    of the room's newest posts (other than the one loaded) to queue, up to 20, in the order newest
--    first. Postgres chooses them — posts of this room only, which a member who may start a session
--    may read — and queues them as the host, through the queue's own trigger (its limits and room
--    check hold).

-- ---------------------------------------------------------------------------------------------
-- 1. When a session is over
-- ---------------------------------------------------------------------------------------------
create function private.session_is_over(target public.listening_sessions)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select target.ended_at is null
    and target.host_seen_at < clock_timestamp() - private.session_idle_after()
    and not exists (
      select 1 from public.presence p
      where p.room_id = target.room_id and p.session_id = target.id
        and p.seen_at > clock_timestamp() - private.session_idle_after()
    );
$$;

comment on function private.session_is_over(public.listening_sessions) is
  'A live session nobody follows: no heartbeat from its host and no page in it for private.session_idle_after().';
revoke all on function private.session_is_over(public.listening_sessions) from public, anon, authenticated;

-- Ends the room's session when nobody follows it: ended when it was last heard from, paused.
create function private.end_session_if_over(room uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.listening_sessions s
    set ended_at = greatest(s.host_seen_at, s.started_at, (
          select max(p.seen_at) from public.presence p where p.room_id = s.room_id and p.session_id = s.id
        )),
        playing = false
    where s.room_id = room and s.ended_at is null and private.session_is_over(s);
$$;

comment on function private.end_session_if_over(uuid) is 'Ends the room''s live session when nobody follows it (private.session_is_over).';
revoke all on function private.end_session_if_over(uuid) from public, anon, authenticated;

-- The live sessions of the rooms asked about that the caller may read, after ending those nobody
-- follows: what the room page announces and the home page lists, with how many people follow.
create function public.live_sessions(room_ids uuid[])
returns table (room_id uuid, session_id uuid, host_id uuid, post_id uuid, playing boolean, started_at timestamptz, listeners integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  room uuid;
begin
  if cardinality(room_ids) > 100 then
    raise exception 'Ask about at most 100 rooms at a time' using errcode = '22023';
  end if;
  for room in select distinct r from unnest(room_ids) r where r is not null and private.can_read_room_content(r) loop
    perform private.end_session_if_over(room);
  end loop;
  return query
    select s.room_id, s.id, s.host_id, s.post_id, s.playing, s.started_at,
      (select count(distinct p.user_id)::integer from public.presence p
        where p.room_id = s.room_id and p.session_id = s.id
          and p.seen_at > clock_timestamp() - private.presence_lifetime()
          and private.is_current_member(s.room_id, p.user_id))
    from public.listening_sessions s
    where s.room_id = any(room_ids) and s.ended_at is null and private.can_read_room_content(s.room_id)
    order by s.started_at desc;
end;
$$;

comment on function public.live_sessions(uuid[]) is
  'The live sessions of these rooms (at most 100) the caller may read, with how many follow; sessions nobody follows end first.';
revoke all on function public.live_sessions(uuid[]) from public;
grant execute on function public.live_sessions(uuid[]) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 2. Claiming the host's place answers who hosts
-- ---------------------------------------------------------------------------------------------
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
  update public.listening_sessions s set host_id = caller, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.claim_session_host(uuid, uuid) is
  'Any member: becomes host when the host has gone quiet or is no longer a member. Answers the session as it then is: hosted by the caller, by someone else (the host is still here, or another claim won), or ended (nobody followed it).';

-- ---------------------------------------------------------------------------------------------
-- 3. Starting: the session nobody follows makes way; the room's recent posts queued
-- ---------------------------------------------------------------------------------------------
drop function public.start_listening_session(uuid, uuid);

create function public.start_listening_session(room_id uuid, post_id uuid default null, queue_recent integer default 0)
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
  if queue_recent is null or queue_recent < 0 or queue_recent > 20 then
    raise exception 'A new session queues between 0 and 20 of the room''s posts' using errcode = '22023';
  end if;
  if start_listening_session.post_id is not null then
    perform private.session_post_duration(start_listening_session.room_id, start_listening_session.post_id);
  end if;
  -- A session nobody follows is over: it makes way for the new one.
  perform private.end_session_if_over(start_listening_session.room_id);
  begin
    insert into public.listening_sessions (room_id, started_by, host_id, post_id)
    values (start_listening_session.room_id, caller, caller, start_listening_session.post_id)
    returning * into started;
  exception when unique_violation then
    raise exception 'A session is already on in this room — join it' using errcode = 'PT409';
  end;
  -- The room's newest posts, queued by the host (the queue's trigger checks each and orders them).
  insert into public.session_queue (session_id, post_id, added_by)
  select started.id, p.id, caller
  from public.posts p
  where p.room_id = start_listening_session.room_id and p.id is distinct from start_listening_session.post_id
  order by p.created_at desc, p.id desc
  limit queue_recent;
  return started;
end;
$$;

comment on function public.start_listening_session(uuid, uuid, integer) is
  'Starts the room''s listening session with the caller as host (optionally with a post loaded, paused at 0), with the room''s queue_recent newest other posts queued (0–20).';
revoke all on function public.start_listening_session(uuid, uuid, integer) from public, anon;
grant execute on function public.start_listening_session(uuid, uuid, integer) to authenticated, service_role;
