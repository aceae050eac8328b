-- Limits on what one member's page can make the database tell everyone in a session. A ready mark
-- that is news, and each change to the DJ waitlist (join, pick, leave), is a broadcast to every
-- page in the session; a member's client that skips the page could otherwise send them in a loop
-- (alternating two positions, or joining and leaving) and flood everyone's socket. Honest pages
-- send a few a minute: a ready mark per host action and per track, a waitlist change when a
-- person clicks. Refusals are PT429 in words (HTTP 429), counted per person by private.take_rate.
-- A ready mark that is not news (the same post, within half a second) is recorded and costs nothing.

create or replace function private.rate_limits()
returns table (action text, max_count integer, per interval, refusal text)
language sql
immutable
set search_path = ''
as $$
  values
    ('rooms', 10, interval '1 day', 'You''ve created 10 rooms today — try again in {wait}'),
    ('posts', 20, interval '1 hour', 'You''re posting quickly in this room — try again in {wait}'),
    ('comments', 20, interval '1 minute', 'You''re commenting quickly — try again in {wait}'),
    ('reactions', 60, interval '1 minute', 'You''re reacting quickly — try again in {wait}'),
    ('wallet links', 30, interval '10 minutes', 'Too many attempts to link a wallet — try again in {wait}'),
    ('recovery codes', 5, interval '15 minutes', 'Too many recovery codes tried — try again in {wait}'),
    ('reports', 20, interval '1 hour', 'You''ve sent a lot of reports — try again in {wait}'),
    ('ready marks', 60, interval '1 minute', 'Your player said it was ready very often — try again in {wait}'),
    ('waitlist changes', 20, interval '1 minute', 'You''re changing the waitlist quickly — try again in {wait}')
$$;

create or replace function public.mark_session_ready(session_id uuid, post_id uuid, position_seconds double precision)
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
    -- News reaches everyone in the session: it counts against the caller's limit.
    perform private.take_rate('ready marks', caller);
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

create or replace function public.join_dj_waitlist(session_id uuid, post_id uuid)
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
  perform private.take_rate('waitlist changes', caller);
  return private.set_waitlist(found_session,
    found_session.dj_waitlist || jsonb_build_array(jsonb_build_object('user_id', caller, 'post_id', private.checked_pick(found_session, join_dj_waitlist.post_id))));
end;
$$;

create or replace function public.pick_dj_post(session_id uuid, post_id uuid)
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
  perform private.take_rate('waitlist changes', caller);
  return private.set_waitlist(found_session,
    jsonb_set(found_session.dj_waitlist, array[(place - 1)::text, 'post_id'], to_jsonb(private.checked_pick(found_session, pick_dj_post.post_id))));
end;
$$;

create or replace function public.leave_dj_waitlist(session_id uuid)
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
    perform private.take_rate('waitlist changes', caller);
    return private.pass_turn(found_session, false);
  end if;
  if private.waitlist_place(found_session.dj_waitlist, caller) is null then
    raise exception 'You''re not on the waitlist' using errcode = 'PT409';
  end if;
  perform private.take_rate('waitlist changes', caller);
  return private.set_waitlist(found_session, private.without_person(found_session.dj_waitlist, caller));
end;
$$;
