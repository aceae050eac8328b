-- The log's reason of a timed ban or a timeout: the moderator's reason, then "(until <ISO time>)",
-- without a leading space when no reason was given.

create or replace function public.ban_member(room_id uuid, user_id uuid, reason text default '', expires_at timestamptz default null)
returns public.bans
language plpgsql
security definer
set search_path = ''
as $$
declare
  given_reason text := coalesce(btrim(ban_member.reason), '');
  saved public.bans;
  target_room public.rooms;
begin
  select * into target_room from public.rooms r where r.id = ban_member.room_id;
  if not found then
    raise exception 'This room doesn''t exist any more' using errcode = '22023';
  end if;
  perform private.check_moderation_target(ban_member.room_id, ban_member.user_id, 'ban');
  if char_length(given_reason) > 500 then
    raise exception 'Keep the reason under 500 characters' using errcode = '22023', constraint = 'bans_reason_length';
  end if;
  if ban_member.expires_at is not null and ban_member.expires_at <= now() then
    raise exception 'A ban ends in the future — or leave the end empty to ban for good' using errcode = '22023';
  end if;

  insert into public.bans as b (room_id, user_id, banned_by, reason, created_at, expires_at)
  values (ban_member.room_id, ban_member.user_id, (select auth.uid()), given_reason, now(), ban_member.expires_at)
  on conflict on constraint bans_pkey do update
    set banned_by = excluded.banned_by, reason = excluded.reason, created_at = excluded.created_at, expires_at = excluded.expires_at
  returning * into saved;

  -- The wallets the ban holds against: every one linked now, and the one that admitted them.
  insert into private.banned_wallets (room_id, user_id, address)
  select ban_member.room_id, ban_member.user_id, w.address from public.wallets w where w.user_id = ban_member.user_id
  union
  select ban_member.room_id, ban_member.user_id, lower(m.verified_wallet)
  from public.memberships m
  where m.room_id = ban_member.room_id and m.user_id = ban_member.user_id and m.verified_wallet is not null
  on conflict do nothing;

  -- The membership ends now (logged as the ban, not as a removal); a gated room's epoch moves on
  -- with it, a public room's here (its session channel is for members only).
  perform set_config('cuepoint.moderation_action', 'ban', true);
  delete from public.memberships m where m.room_id = ban_member.room_id and m.user_id = ban_member.user_id;
  perform set_config('cuepoint.moderation_action', '', true);
  if target_room.visibility = 'public' then
    update public.rooms r set access_epoch = r.access_epoch + 1 where r.id = ban_member.room_id;
  end if;
  delete from public.presence p where p.room_id = ban_member.room_id and p.user_id = ban_member.user_id;

  perform private.log_moderation(ban_member.room_id, 'ban', ban_member.user_id, null, null,
    concat_ws(' ', nullif(given_reason, ''), '(until ' || private.iso_time(ban_member.expires_at) || ')'));
  return saved;
end;
$$;

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
  return saved;
end;
$$;
