-- Reading moments and reactions: the same rule (whoever may read the room), written as the
-- memberships policy is, so the caller's rooms are read once per statement (a hashed subplan) and a
-- public room is one primary key probe per row. The first version called
-- private.can_read_room_content(room_id) for every row — a security definer function Postgres cannot
-- inline, evaluated before the caller's own filters: a post page of 100 moments with their
-- reactions paid ~250 calls, and a page by cursor in the middle of a post with 10,000 moments
-- ~5,000 (214 ms in SQL as a member, against 25 ms for the service role).
drop policy "Moments are readable by whoever may read the room" on public.moments;
create policy "Moments are readable by whoever may read the room"
  on public.moments for select
  to anon, authenticated
  using (
    room_id in (select private.my_room_ids())
    or exists (select 1 from public.rooms r where r.id = moments.room_id and r.visibility = 'public')
  );

drop policy "Reactions are readable by whoever may read the room" on public.reactions;
create policy "Reactions are readable by whoever may read the room"
  on public.reactions for select
  to anon, authenticated
  using (
    room_id in (select private.my_room_ids())
    or exists (select 1 from public.rooms r where r.id = reactions.room_id and r.visibility = 'public')
  );
