-- Timeouts: the owner or a moderator mutes someone in a room for 10 minutes to 28 days. While it lasts
-- they still read and listen, but cannot post, comment, react, suggest to (or add to) a session's
-- queue, edit their posts or comments, or start, take over or be handed a listening session; one they
-- host when timed out passes to whoever takes it next. It ends by itself (expires_at is compared with
-- the time; nothing to run), or when lifted.
--
-- Each refusal reads "You're timed out until <time> — you can still read and listen." with the end
-- in UTC words in the message and as ISO 8601 (UTC) in the exception's DETAIL, for the app to show
-- in the reader's own time zone.

create table public.timeouts (
  room_id uuid not null references public.rooms (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  by_user_id uuid references public.profiles (id) on delete set null,
  reason text not null default '',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (room_id, user_id),
  constraint timeouts_reason_length check (char_length(reason) <= 500),
  constraint timeouts_length check (
    expires_at >= created_at + interval '10 minutes' and expires_at <= created_at + interval '28 days'
  )
);

comment on table public.timeouts is 'Who is timed out in a room (reads and listens, writes nothing), by whom, why and until when. One row per room and person; an expired row no longer counts.';
comment on constraint timeouts_reason_length on public.timeouts is 'A timeout''s reason is at most 500 characters';
comment on constraint timeouts_length on public.timeouts is 'A timeout lasts from 10 minutes to 28 days';

create index timeouts_user_id_idx on public.timeouts (user_id);
create index timeouts_by_user_id_idx on public.timeouts (by_user_id);

alter table public.timeouts enable row level security;

create policy "People read their own timeouts; the owner and moderators read the room's" on public.timeouts
  for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.room_role(timeouts.room_id)) in ('owner', 'moderator')
  );

revoke all on public.timeouts from anon, authenticated, service_role;
grant select on public.timeouts to authenticated, service_role;

-- The end of the person's timeout in the room while it lasts; null when none.
create function private.timed_out_until(target_room uuid, person uuid)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select t.expires_at from public.timeouts t
  where t.room_id = target_room and t.user_id = person and t.expires_at > now();
$$;

revoke all on function private.timed_out_until(uuid, uuid) from public, anon, authenticated;

-- Raises the timeout's refusal when the person is timed out in the room.
create function private.refuse_if_timed_out(target_room uuid, person uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  until timestamptz := private.timed_out_until(target_room, person);
begin
  if until is not null then
    raise exception 'You''re timed out until % — you can still read and listen.', private.time_words(until)
      using errcode = '42501', detail = private.iso_time(until), hint = 'timed_out';
  end if;
end;
$$;

revoke all on function private.refuse_if_timed_out(uuid, uuid) from public, anon, authenticated;

-- The write paths: the row's person column is tg_argv[0]. An edit is refused only when its author
-- makes it (a moderator acting on the row is not the timed-out person).
create function private.refuse_timed_out_writes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid := (to_jsonb(new) ->> tg_argv[0])::uuid;
begin
  if person is null then
    return new;
  end if;
  if tg_op = 'UPDATE' and tg_table_name in ('posts', 'moments') and person is distinct from (select auth.uid()) then
    return new;
  end if;
  perform private.refuse_if_timed_out(new.room_id, person);
  return new;
end;
$$;

revoke all on function private.refuse_timed_out_writes() from public, anon, authenticated;

-- Named to run after the triggers that fill in room_id (moments_from_post, reactions_from_moment,
-- session_queue_from_session) and before the rate limits (zz_…).
create trigger posts_timed_out_refused
  before insert or update on public.posts
  for each row execute function private.refuse_timed_out_writes('author_id');
create trigger moments_timed_out_refused
  before insert or update on public.moments
  for each row execute function private.refuse_timed_out_writes('author_id');
create trigger reactions_timed_out_refused
  before insert on public.reactions
  for each row execute function private.refuse_timed_out_writes('user_id');
create trigger session_queue_timed_out_refused
  before insert on public.session_queue
  for each row execute function private.refuse_timed_out_writes('added_by');
-- Hosting: starting a session (insert), taking it over or being handed it (a new host_id).
create trigger listening_sessions_timed_out_refused
  before insert on public.listening_sessions
  for each row execute function private.refuse_timed_out_writes('host_id');
create trigger listening_sessions_timed_out_host_refused
  before update of host_id on public.listening_sessions
  for each row when (new.host_id is distinct from old.host_id)
  execute function private.refuse_timed_out_writes('host_id');

-- ---------------------------------------------------------------------------------------------
-- Time out and lift
-- ---------------------------------------------------------------------------------------------
create function public.time_out_member(room_id uuid, user_id uuid, minutes integer, reason text default '')
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
    given_reason || ' (until ' || private.iso_time(saved.expires_at) || ')');
  return saved;
end;
$$;

comment on function public.time_out_member(uuid, uuid, integer, text) is 'Owner and moderators: the person reads and listens but writes nothing in the room for the given minutes (10 to 40320, i.e. 28 days); a session they host passes on. Logged as ''timeout''. A moderator cannot time out the owner or another moderator; nobody times out themselves.';

create function public.lift_timeout(room_id uuid, user_id uuid)
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
end;
$$;

comment on function public.lift_timeout(uuid, uuid) is 'Owner and moderators: ends the person''s timeout in the room now; logged as ''timeout_lifted''.';

revoke all on function public.time_out_member(uuid, uuid, integer, text) from public, anon;
revoke all on function public.lift_timeout(uuid, uuid) from public, anon;
grant execute on function public.time_out_member(uuid, uuid, integer, text) to authenticated;
grant execute on function public.lift_timeout(uuid, uuid) to authenticated;
