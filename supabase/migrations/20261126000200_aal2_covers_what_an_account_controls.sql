-- A second factor covers everything an account owns or controls, not only its profile, wallets,
-- gates and roles (20261124006100_require_aal2.sql).
--
-- The principle: for an account with a verified factor, a session below aal2 (a password alone) may
-- read and take part — join and leave rooms, post, comment, react, suggest, upload its own media,
-- edit and delete what it wrote — but may not change what the account controls: a room it owns
-- or moderates (its name, address, description, cover, settings, gate), the room's existence, other
-- people's memberships and content, its own avatar, or a listening session it does not host. A
-- password alone must not be able to undo what a person built.
--
-- Enforced as restrictive policies (ANDed with the permissive ones) and, in the session functions,
-- which run as their definer, as a check that says why.

create function private.second_factor_satisfied()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((select auth.jwt() ->> 'aal') = 'aal2', false) or not (select private.has_verified_factor());
$$;

revoke all on function private.second_factor_satisfied() from public;
grant execute on function private.second_factor_satisfied() to authenticated, service_role;

comment on function private.second_factor_satisfied() is
  'True at aal2, or for an account without a verified factor: what a session needs to change what its account controls.';

-- Rooms: renaming, moving to another address, the description, cover and settings, and deleting.
create policy "With a verified factor, rooms change only at aal2"
  on public.rooms as restrictive for update
  to authenticated
  using ((select private.second_factor_satisfied()))
  with check ((select private.second_factor_satisfied()));

create policy "With a verified factor, rooms are deleted only at aal2"
  on public.rooms as restrictive for delete
  to authenticated
  using ((select private.second_factor_satisfied()));

-- Memberships: leaving is taking part; removing someone else is control.
create policy "With a verified factor, removing others needs aal2"
  on public.memberships as restrictive for delete
  to authenticated
  using (user_id = (select auth.uid()) or (select private.second_factor_satisfied()));

-- Content: authors delete what they wrote; deleting someone else's is moderation.
create policy "With a verified factor, deleting others' posts needs aal2"
  on public.posts as restrictive for delete
  to authenticated
  using (author_id = (select auth.uid()) or (select private.second_factor_satisfied()));

create policy "With a verified factor, deleting others' comments needs aal2"
  on public.moments as restrictive for delete
  to authenticated
  using (author_id = (select auth.uid()) or (select private.second_factor_satisfied()));

-- Files: the avatar is the profile's picture and the cover the room's; media one uploaded is one's
-- own to add and remove, someone else's is removed only at aal2. Other buckets are not held back.
create policy "With a verified factor, avatar and cover uploads need aal2"
  on storage.objects as restrictive for insert
  to authenticated
  with check (bucket_id not in ('avatars', 'room-covers') or (select private.second_factor_satisfied()));

create policy "With a verified factor, avatar and cover changes need aal2"
  on storage.objects as restrictive for update
  to authenticated
  using (bucket_id not in ('avatars', 'room-covers') or (select private.second_factor_satisfied()))
  with check (bucket_id not in ('avatars', 'room-covers') or (select private.second_factor_satisfied()));

create policy "With a verified factor, removing files one controls needs aal2"
  on storage.objects as restrictive for delete
  to authenticated
  using (
    (bucket_id <> 'media' and bucket_id not in ('avatars', 'room-covers'))
    or (bucket_id = 'media' and split_part(name, '/', 2) = (select auth.uid())::text)
    or (select private.second_factor_satisfied())
  );

-- Sessions: the host runs their own session at any level; ending or handing over a session one
-- does not host (as a moderator or the owner) is control.
create function private.require_second_factor_unless_host(found_session public.listening_sessions, action text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if found_session.host_id is distinct from (select auth.uid()) and not (select private.second_factor_satisfied()) then
    raise exception 'Enter the code from your authenticator app first, then % the session', action using errcode = '42501';
  end if;
end;
$$;

revoke all on function private.require_second_factor_unless_host(public.listening_sessions, text) from public;
grant execute on function private.require_second_factor_unless_host(public.listening_sessions, text) to authenticated, service_role;

create or replace function public.end_listening_session(session_id uuid)
returns public.listening_sessions
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions;
begin
  select * into found_session from public.listening_sessions s where s.id = end_listening_session.session_id for update;
  if not found or (select private.room_role(found_session.room_id)) is null then
    raise exception 'Only members of the room can take part in its session' using errcode = '42501';
  end if;
  if found_session.ended_at is not null then
    return found_session;
  end if;
  if found_session.host_id is distinct from (select auth.uid())
     and (select private.room_role(found_session.room_id)) not in ('owner', 'moderator') then
    raise exception 'Only the host, moderators and the owner can end the session' using errcode = '42501';
  end if;
  perform private.require_second_factor_unless_host(found_session, 'end');
  update public.listening_sessions s set ended_at = clock_timestamp(), playing = false
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

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
  if not exists (select 1 from public.memberships m where m.room_id = found_session.room_id and m.user_id = hand_over_session.new_host_id) then
    raise exception 'That person isn''t a member of this room' using errcode = '23503', constraint = 'listening_sessions_host_id_fkey';
  end if;
  update public.listening_sessions s set host_id = hand_over_session.new_host_id, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;
