-- Slow mode, the report threshold, what the app asks about the caller's standing in a room, and the
-- log entries of the moderation actions that existed before the log (role changes, gate changes,
-- members removed).
--
-- Slow mode: a comment by someone who is not the room's owner or a moderator is refused while their
-- previous comment in the room is younger than rooms.slow_mode_seconds. Two comments sent at once
-- are serialised by a transaction-scoped advisory lock per (room, person) taken before the look at
-- the previous comment, so the second sees the first and is refused. The refusal says how long to
-- wait (errcode PT429, as the rate limits; DETAIL is the ISO 8601 UTC time the next comment may go).

create index moments_room_author_created_idx on public.moments (room_id, author_id, created_at desc);

create function private.enforce_slow_mode()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  gap integer;
  author_role text;
  last_at timestamptz;
  next_at timestamptz;
begin
  select r.slow_mode_seconds into gap from public.rooms r where r.id = new.room_id;
  if coalesce(gap, 0) = 0 or new.author_id is null then
    return new;
  end if;
  select m.role into author_role from public.memberships m where m.room_id = new.room_id and m.user_id = new.author_id;
  if author_role in ('owner', 'moderator') then
    return new;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('slow mode:' || new.room_id::text || ':' || new.author_id::text, 0));
  -- A fresh snapshot (read committed): a comment committed while this one waited on the lock counts.
  select max(c.created_at) into last_at
    from public.moments c
    where c.room_id = new.room_id and c.author_id = new.author_id and c.created_at > now() - make_interval(secs => gap);
  if last_at is not null then
    next_at := last_at + make_interval(secs => gap);
    raise exception 'Slow mode is on in this room — you can comment again in %', private.wait_words(next_at - now())
      using errcode = 'PT429', detail = private.iso_time(next_at), hint = 'slow_mode';
  end if;
  return new;
end;
$$;

revoke all on function private.enforce_slow_mode() from public, anon, authenticated;

-- After moments_from_post (which fills in room_id), before the rate limit.
create trigger moments_slow_mode
  before insert on public.moments
  for each row execute function private.enforce_slow_mode();

-- ---------------------------------------------------------------------------------------------
-- Settings
-- ---------------------------------------------------------------------------------------------
create function public.set_slow_mode(room_id uuid, seconds integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous integer;
begin
  perform private.check_room_moderator(set_slow_mode.room_id, 'change slow mode');
  if set_slow_mode.seconds is null or not (set_slow_mode.seconds = 0 or set_slow_mode.seconds between 5 and 3600) then
    raise exception 'Slow mode is off (0) or from 5 seconds to 1 hour' using errcode = '22023', constraint = 'rooms_slow_mode_seconds_range';
  end if;
  select r.slow_mode_seconds into previous from public.rooms r where r.id = set_slow_mode.room_id for update;
  if previous is distinct from set_slow_mode.seconds then
    update public.rooms r set slow_mode_seconds = set_slow_mode.seconds where r.id = set_slow_mode.room_id;
    perform private.log_moderation(set_slow_mode.room_id, 'slow_mode_changed', null, null, null,
      case when set_slow_mode.seconds = 0 then 'off'
           else 'one comment every ' || private.wait_words(make_interval(secs => set_slow_mode.seconds)) end);
  end if;
  return set_slow_mode.seconds;
end;
$$;

comment on function public.set_slow_mode(uuid, integer) is 'Owner and moderators: the least seconds between one person''s comments in the room (0: off, or 5 to 3600); logged as ''slow_mode_changed'' when it changes.';

create function public.set_report_threshold(room_id uuid, threshold integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous integer;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to moderate a room' using errcode = '42501';
  end if;
  if (select private.room_role(set_report_threshold.room_id)) is distinct from 'owner' then
    raise exception 'Only the room''s owner sets how many reports hide a post or comment' using errcode = '42501';
  end if;
  if not (select private.second_factor_satisfied()) then
    raise exception 'Enter the code from your authenticator app first, then change the report threshold' using errcode = '42501';
  end if;
  if set_report_threshold.threshold is null or set_report_threshold.threshold not between 1 and 100 then
    raise exception 'The report threshold is from 1 to 100 people' using errcode = '22023', constraint = 'rooms_report_threshold_range';
  end if;
  select r.report_threshold into previous from public.rooms r where r.id = set_report_threshold.room_id for update;
  if previous is distinct from set_report_threshold.threshold then
    update public.rooms r set report_threshold = set_report_threshold.threshold where r.id = set_report_threshold.room_id;
    perform private.log_moderation(set_report_threshold.room_id, 'report_threshold_changed', null, null, null,
      previous || ' → ' || set_report_threshold.threshold);
  end if;
  return set_report_threshold.threshold;
end;
$$;

comment on function public.set_report_threshold(uuid, integer) is 'Owner only: how many distinct members'' reports hide a post or comment until reviewed (1 to 100); logged as ''report_threshold_changed'' when it changes.';

revoke all on function public.set_slow_mode(uuid, integer) from public, anon;
revoke all on function public.set_report_threshold(uuid, integer) from public, anon;
grant execute on function public.set_slow_mode(uuid, integer) to authenticated;
grant execute on function public.set_report_threshold(uuid, integer) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The caller's standing in a room
-- ---------------------------------------------------------------------------------------------
create function public.my_room_standing(room_id uuid)
returns table (
  banned boolean,
  banned_until timestamptz,
  ban_reason text,
  timed_out_until timestamptz,
  timeout_reason text,
  slow_mode_seconds integer,
  slow_mode_applies boolean,
  next_comment_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select
    b.user_id is not null,
    b.expires_at,
    b.reason,
    t.expires_at,
    t.reason,
    r.slow_mode_seconds,
    r.slow_mode_seconds > 0 and coalesce(m.role not in ('owner', 'moderator'), true),
    case when r.slow_mode_seconds > 0 and coalesce(m.role not in ('owner', 'moderator'), true) then (
      select max(c.created_at) + make_interval(secs => r.slow_mode_seconds)
      from public.moments c
      where c.room_id = r.id and c.author_id = (select auth.uid())
        and c.created_at > now() - make_interval(secs => r.slow_mode_seconds)
    ) end
  from public.rooms r
  left join public.bans b
    on b.room_id = r.id and b.user_id = (select auth.uid()) and (b.expires_at is null or b.expires_at > now())
  left join public.timeouts t
    on t.room_id = r.id and t.user_id = (select auth.uid()) and t.expires_at > now()
  left join public.memberships m
    on m.room_id = r.id and m.user_id = (select auth.uid())
  where r.id = my_room_standing.room_id;
$$;

comment on function public.my_room_standing(uuid) is 'The caller''s standing in the room: banned (banned_until null: for good) and why, timed out until when and why, the room''s slow mode, whether it applies to the caller, and when their next comment may go (null: now). Anyone may ask; a signed-out caller gets the room''s slow mode alone.';

revoke all on function public.my_room_standing(uuid) from public;
grant execute on function public.my_room_standing(uuid) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Logging the moderation actions that are plain writes
-- ---------------------------------------------------------------------------------------------
-- A role changed (the owner's update of a membership).
create function private.log_role_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.log_moderation(new.room_id, 'role_changed', new.user_id, null, null, old.role || ' → ' || new.role);
  return null;
end;
$$;

revoke all on function private.log_role_change() from public, anon, authenticated;

create trigger memberships_log_role_change
  after update of role on public.memberships
  for each row when (old.role is distinct from new.role)
  execute function private.log_role_change();

-- A member removed by someone else (the owner or a moderator). Not: leaving, a lapse or a wallet
-- unlinked (nobody else acted), a ban (logged as the ban), the room or the account deleted.
create function private.log_member_removed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
begin
  if actor is null or actor = old.user_id
     or coalesce(current_setting('cuepoint.moderation_action', true), '') = 'ban'
     or not exists (select 1 from public.rooms r where r.id = old.room_id)
     or not exists (select 1 from public.profiles p where p.id = old.user_id) then
    return null;
  end if;
  perform private.log_moderation(old.room_id, 'member_removed', old.user_id);
  return null;
end;
$$;

revoke all on function private.log_member_removed() from public, anon, authenticated;

create trigger memberships_log_removal
  after delete on public.memberships
  for each row execute function private.log_member_removed();

-- The gate set, changed or removed (set_room_gate, or the owner's writes to room_gates). Not when the
-- room is created with its gate, nor when the room is deleted.
create function private.log_gate_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
  created timestamptz;
begin
  select r.created_at into created from public.rooms r where r.id = target_room;
  if created is null or created = now()
     or (tg_op = 'UPDATE' and to_jsonb(old) - 'updated_at' = to_jsonb(new) - 'updated_at') then
    return null;
  end if;
  perform private.log_moderation(target_room, 'gate_changed', null, null, null,
    case when tg_op = 'DELETE' then 'gate removed'
         else format('chain %s, %s %s%s, at least %s', new.chain_id, new.standard, new.contract_address,
                     case when new.token_id is null then '' else ' #' || new.token_id end, new.min_balance) end);
  return null;
end;
$$;

revoke all on function private.log_gate_change() from public, anon, authenticated;

create trigger room_gates_log_change
  after insert or update or delete on public.room_gates
  for each row execute function private.log_gate_change();
