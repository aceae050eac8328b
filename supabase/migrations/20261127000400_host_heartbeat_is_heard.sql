-- The host's heartbeat is heard by everyone on the session's channel.
--
-- Who takes over when the host leaves was decided from presence alone, and presence is whatever a
-- client says: a member could keep a departed host looking present (a meta with the host's id) so
-- that nobody ever took over. Now each heartbeat — the server's own fact that the host's page is
-- there, written to host_seen_at — is also sent on the session's topic (event `host`,
-- `{host_id, seen_at}`), and only the database sends on that topic. A page that has not heard the
-- host for a few beats treats the host as gone, whatever presence says, and claims; the claim is
-- decided by Postgres from host_seen_at, as before.
create or replace function public.session_heartbeat(session_id uuid)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_session public.listening_sessions := private.live_session_for_change(session_heartbeat.session_id);
  seen timestamptz := clock_timestamp();
begin
  if found_session.host_id is distinct from (select auth.uid()) then
    raise exception 'Only the host''s page sends heartbeats' using errcode = '42501';
  end if;
  update public.listening_sessions s set host_seen_at = seen where s.id = found_session.id;
  perform realtime.send(
    jsonb_build_object('session_id', found_session.id, 'host_id', found_session.host_id, 'seen_at', seen),
    'host',
    private.current_room_topic('session', found_session.room_id),
    true
  );
  return seen;
end;
$$;
