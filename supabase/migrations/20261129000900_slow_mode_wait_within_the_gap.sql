-- Slow mode's wait never reads longer than the room's gap. A comment that waited on the lock behind
-- one sent at the same moment started its transaction first, so the wait counted from its own start
-- could come to a second more than the gap ("31 seconds" in a room slowed to 30).

create or replace function private.enforce_slow_mode()
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
    raise exception 'Slow mode is on in this room — you can comment again in %', private.wait_words(least(next_at - now(), make_interval(secs => gap)))
      using errcode = 'PT429', detail = private.iso_time(next_at), hint = 'slow_mode';
  end if;
  return new;
end;
$$;

