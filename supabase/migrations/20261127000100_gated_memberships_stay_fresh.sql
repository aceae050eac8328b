-- A gated room's ordinary membership counts only while its balance check is fresh.
--
-- Before, every read and write policy asked only whether a membership row existed: a member who
-- sold the token, or whose wallet moved to another account, kept reading and writing the room
-- through REST, Storage and Realtime for as long as nobody re-checked — and the re-check ran only
-- when their own browser rendered the room page.
--
-- Now a plain member of a gated room counts as a member while `verified_at` is within
-- private.gated_membership_lifetime(): the app's re-check window (an hour, when pages re-read the
-- balances) plus a grace of 15 minutes, in which every open page of the room has re-checked at
-- least once (they do every 10 minutes). A member whose check is older is kept (their row, their
-- posts) but reads and writes nothing of the room until a re-check renews it or ends it. Owners and
-- moderators are exempt, as the re-check has always had them; a public room has nothing to check.
--
-- Every policy, storage policy, channel authorization and session function asks through the
-- helpers redefined here (room_role, can_read_room_content, my_room_ids) or through
-- private.is_current_member, so the rule lives in one place.

create function private.gated_membership_lifetime()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '75 minutes' $$;

comment on function private.gated_membership_lifetime() is 'How long a gated room''s balance check keeps an ordinary member in: the app''s hourly re-check plus 15 minutes of grace.';

-- Whether a membership counts now: always for owners and moderators and in public rooms; for an
-- ordinary member of a gated room, while the last balance check is fresh.
create function private.membership_counts(room_visibility text, member_role text, verified_at timestamptz)
returns boolean
language sql
stable
set search_path = ''
as $$
  select member_role <> 'member'
      or room_visibility <> 'gated'
      or coalesce(verified_at > now() - private.gated_membership_lifetime(), false);
$$;

revoke all on function private.gated_membership_lifetime() from public;
revoke all on function private.membership_counts(text, text, timestamptz) from public;
grant execute on function private.gated_membership_lifetime() to anon, authenticated, service_role;
grant execute on function private.membership_counts(text, text, timestamptz) to anon, authenticated, service_role;

-- The caller's role in the room, or null when they are not a member (or their gated membership is stale).
create or replace function private.room_role(target_room uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role
  from public.memberships m
  join public.rooms r on r.id = m.room_id
  where m.room_id = target_room
    and m.user_id = (select auth.uid())
    and private.membership_counts(r.visibility, m.role, m.verified_at);
$$;

create or replace function private.can_read_room_content(target_room uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.rooms r
    where r.id = target_room
      and (r.visibility = 'public'
           or exists (select 1 from public.memberships m
                      where m.room_id = r.id
                        and m.user_id = (select auth.uid())
                        and private.membership_counts(r.visibility, m.role, m.verified_at)))
  );
$$;

create or replace function private.my_room_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.room_id
  from public.memberships m
  join public.rooms r on r.id = m.room_id
  where m.user_id = (select auth.uid())
    and private.membership_counts(r.visibility, m.role, m.verified_at);
$$;

-- Whether someone (not necessarily the caller) is a member of the room whose membership counts now.
create function private.is_current_member(target_room uuid, person uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.memberships m
    join public.rooms r on r.id = m.room_id
    where m.room_id = target_room
      and m.user_id = person
      and private.membership_counts(r.visibility, m.role, m.verified_at)
  );
$$;

revoke all on function private.is_current_member(uuid, uuid) from public;
grant execute on function private.is_current_member(uuid, uuid) to authenticated, service_role;

-- A host whose membership stopped counting hosts nothing: the queue is no longer theirs to order.
create or replace function private.hosts_session(target_session uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.listening_sessions s
    where s.id = target_session
      and s.ended_at is null
      and s.host_id = (select auth.uid())
      and private.is_current_member(s.room_id, s.host_id)
  );
$$;

-- A member may take over from a host who is no longer a member — or whose gated membership has
-- gone stale — without waiting for the host to go quiet.
create or replace function public.claim_session_host(session_id uuid, expected_host_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  found_session public.listening_sessions := private.live_session_for_change(claim_session_host.session_id);
begin
  if found_session.host_id = caller then
    return found_session;
  end if;
  if found_session.host_seen_at < clock_timestamp() - private.session_idle_after() then
    update public.listening_sessions s
      set ended_at = greatest(s.host_seen_at, s.started_at), playing = false
      where s.id = found_session.id
      returning * into found_session;
    return found_session;
  end if;
  if found_session.host_id is distinct from claim_session_host.expected_host_id then
    raise exception 'Someone else is hosting now' using errcode = 'PT409';
  end if;
  if found_session.host_id is not null
     and found_session.host_seen_at >= clock_timestamp() - private.host_quiet_after()
     and private.is_current_member(found_session.room_id, found_session.host_id) then
    raise exception 'The host is still here' using errcode = 'PT409';
  end if;
  update public.listening_sessions s set host_id = caller, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

-- The session goes only to someone whose membership counts now.
create or replace function public.hand_over_session(session_id uuid, new_host_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(hand_over_session.session_id);
begin
  if found_session.host_id is distinct from (select auth.uid())
     and (select private.room_role(found_session.room_id)) not in ('owner', 'moderator') then
    raise exception 'Only the host, moderators and the owner can hand the session over' using errcode = '42501';
  end if;
  perform private.require_second_factor_unless_host(found_session, 'hand over');
  if not private.is_current_member(found_session.room_id, hand_over_session.new_host_id) then
    raise exception 'That person isn''t a member of this room' using errcode = '23503', constraint = 'listening_sessions_host_id_fkey';
  end if;
  update public.listening_sessions s set host_id = hand_over_session.new_host_id, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;
