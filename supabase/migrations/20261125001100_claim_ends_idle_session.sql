-- A claim on a session nobody has hosted for `private.session_idle_after()` ends it.
--
-- Before, such a claim raised "This session has ended", which rolled back with it: the row kept
-- `ended_at` null, so the room went on reading as "listening together now" (the pages find the live
-- session by `ended_at is null`), and every member's page that tried to take over was refused again,
-- with nobody able to play, until someone started a new session. Now the claim ends the session as
-- the next start would (ended when its host was last seen, paused) and answers the ended row; the
-- change is a new version, so every page on the channel learns at once that the session is over.
-- Claiming one's own place still changes nothing, and the other refusals are as they were.
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
     and exists (select 1 from public.memberships m where m.room_id = found_session.room_id and m.user_id = found_session.host_id) then
    raise exception 'The host is still here' using errcode = 'PT409';
  end if;
  update public.listening_sessions s set host_id = caller, host_seen_at = clock_timestamp()
    where s.id = found_session.id
    returning * into found_session;
  return found_session;
end;
$$;

comment on function public.claim_session_host(uuid, uuid) is 'Any member: becomes host when the host has gone quiet or is no longer a member; a session nobody has hosted for 2 minutes ends instead (the ended row is returned).';
