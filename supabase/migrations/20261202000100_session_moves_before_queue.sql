-- A session moving to a queued post tells its listeners in the order that lets them play at once:
-- the session's new row first, then the queue entry leaving. Each change is its own broadcast on
-- the session's channel, delivered in the order of the transaction's writes; a page handles the
-- queue's change (a render) before it reads the next message, so with the queue first every
-- follower's player waited for that render before it could start the post held ready. Same
-- rules, same answers; only the order of the two writes changes.

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
    update public.listening_sessions s
      set post_id = next_entry.post_id, position_seconds = 0, playing = true,
          state_at = private.state_time(play_next_in_session.at), host_seen_at = clock_timestamp()
      where s.id = found_session.id
      returning * into found_session;
    delete from public.session_queue q where q.id = next_entry.id;
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

create or replace function public.set_session_playback(
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
  moved_from uuid := found_session.post_id;
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
  update public.listening_sessions s
    set post_id = set_session_playback.post_id,
        position_seconds = target_position,
        playing = set_session_playback.playing,
        rate = set_session_playback.rate,
        state_at = private.state_time(set_session_playback.at),
        host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  if set_session_playback.post_id is distinct from moved_from and set_session_playback.post_id is not null then
    delete from public.session_queue q where q.session_id = found_session.id and q.post_id = set_session_playback.post_id;
  end if;
  return found_session;
end;
$$;

create or replace function private.skip_track(target public.listening_sessions)
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
  update public.listening_sessions s
    set post_id = next_entry.post_id, position_seconds = 0, playing = next_entry.post_id is not null, state_at = clock_timestamp()
    where s.id = target.id
    returning * into changed;
  if next_entry.id is not null then
    delete from public.session_queue q where q.id = next_entry.id;
  end if;
  return changed;
end;
$$;
