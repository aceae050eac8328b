-- A timeout reaches an open page at once: time_out_member and lift_timeout now tell the room's
-- live channel (`room:{room id}`, at its current access epoch) that someone's standing changed,
-- as event "standing" with ids only ({room_id, user_id}); never the reason, the length or who gave it.
-- A comment form hearing its own person's id asks my_room_standing again (which says the rest,
-- to that person only). The bodies are those of 20261129000420_moderation_log_reasons.sql and
-- 20261129000300_timeouts.sql, with the announcement added.

create function private.announce_standing(target_room uuid, target_user uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  topic text := private.current_room_topic('room', target_room);
begin
  if topic is null then
    return;
  end if;
  perform realtime.send(jsonb_build_object('room_id', target_room, 'user_id', target_user), 'standing', topic, true);
end;
$$;

comment on function private.announce_standing(uuid, uuid) is 'Tells the room''s channel that the person''s standing (timeout) changed, with ids only: their open comment forms ask my_room_standing again.';
revoke all on function private.announce_standing(uuid, uuid) from public, anon, authenticated;

create or replace function public.time_out_member(room_id uuid, user_id uuid, minutes integer, reason text default '')
returns public.timeouts
language plpgsql
security definer
set search_path = ''
as $$
declare
  given_reason text := coalesce(btrim(time_out_member.reason), '');
  saved public.timeouts;
begin
  if not exists (select 1 from public.rooms r where r.id = time_out_member.room_id) then
    raise exception 'This room doesn''t exist any more' using errcode = '22023';
  end if;
  perform private.check_moderation_target(time_out_member.room_id, time_out_member.user_id, 'time out');
  if time_out_member.minutes is null or time_out_member.minutes < 10 or time_out_member.minutes > 40320 then
    raise exception 'A timeout lasts from 10 minutes to 28 days' using errcode = '22023', constraint = 'timeouts_length';
  end if;
  if char_length(given_reason) > 500 then
    raise exception 'Keep the reason under 500 characters' using errcode = '22023', constraint = 'timeouts_reason_length';
  end if;

  insert into public.timeouts as t (room_id, user_id, by_user_id, reason, created_at, expires_at)
  values (time_out_member.room_id, time_out_member.user_id, (select auth.uid()), given_reason, now(),
          now() + make_interval(mins => time_out_member.minutes))
  on conflict on constraint timeouts_pkey do update
    set by_user_id = excluded.by_user_id, reason = excluded.reason, created_at = excluded.created_at, expires_at = excluded.expires_at
  returning * into saved;

  -- A session they host waits for another member to take it (claim_session_host).
  update public.listening_sessions s set host_id = null
    where s.room_id = time_out_member.room_id and s.host_id = time_out_member.user_id and s.ended_at is null;

  perform private.log_moderation(time_out_member.room_id, 'timeout', time_out_member.user_id, null, null,
    concat_ws(' ', nullif(given_reason, ''), '(until ' || private.iso_time(saved.expires_at) || ')'));
  perform private.announce_standing(time_out_member.room_id, time_out_member.user_id);
  return saved;
end;
$$;

create or replace function public.lift_timeout(room_id uuid, user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_room_moderator(lift_timeout.room_id, 'lift a timeout');
  delete from public.timeouts t
    where t.room_id = lift_timeout.room_id and t.user_id = lift_timeout.user_id and t.expires_at > now();
  if not found then
    raise exception 'That person isn''t timed out in this room' using errcode = '22023';
  end if;
  perform private.log_moderation(lift_timeout.room_id, 'timeout_lifted', lift_timeout.user_id);
  perform private.announce_standing(lift_timeout.room_id, lift_timeout.user_id);
end;
$$;
