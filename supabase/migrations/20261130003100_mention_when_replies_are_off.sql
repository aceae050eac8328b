-- A comment that replies to someone and also names them tells them once, as a reply — unless they
-- switched replies off, in which case the mention still reaches them if they take mentions (a muted
-- thread or room stops both). The body is 20261130000200's with that one condition changed.

create or replace function private.converse_about_comment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  added uuid[] := '{}';
  everyone_named uuid[];
  visible_now boolean := new.hidden_at is null and new.held_at is null and new.deleted_at is null;
  -- Shown for the first time: new and not held, or approved. (Shown again after reports were
  -- dismissed is not new: its people were told when it was made.)
  first_shown boolean := tg_op = 'INSERT' or (old.held_at is not null and new.held_at is null);
  parent_author uuid;
  person uuid;
begin
  if tg_op = 'INSERT' or new.body is distinct from old.body then
    added := private.sync_mentions('moments', new.id, new.room_id, new.body);
  end if;
  if not visible_now then
    return null;
  end if;
  if not first_shown then
    -- An edit: only those it newly names.
    foreach person in array added loop
      perform private.notify(person, 'mention', new.author_id, new.room_id, new.post_id, new.id);
    end loop;
    return null;
  end if;
  -- New, or shown for the first time (approved): the parent's author, and everyone it names.
  if new.parent_id is not null then
    select c.author_id into parent_author from public.moments c where c.id = new.parent_id and c.deleted_at is null;
    -- Told even when they can no longer read the room: they learn that someone answered, not what.
    if parent_author is not null then
      perform private.notify(parent_author, 'reply', new.author_id, new.room_id, new.post_id, new.id);
    end if;
  end if;
  select coalesce(array_agg(m.user_id), '{}') into everyone_named from public.mentions m where m.moment_id = new.id;
  foreach person in array everyone_named loop
    -- Told once: as a reply when they take replies from here, else as a mention.
    if person is distinct from parent_author
       or not private.wants_notification(person, 'reply', new.room_id, new.post_id) then
      perform private.notify(person, 'mention', new.author_id, new.room_id, new.post_id, new.id);
    end if;
  end loop;
  return null;
end;
$$;
