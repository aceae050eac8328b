-- A gated room's member whose balance check has lapsed (75 minutes without a fresh one) stops
-- counting in every policy at that moment, but nothing moved the room's access epoch then (no row
-- changes when time passes), so a socket they joined with while fresh kept hearing the room until
-- their token expired. Now, before the database sends anything on a gated room's channels, it
-- looks for a membership that lapsed since it last looked; if there is one, the epoch moves on
-- first (as when a member is removed: the old topics are told once, the policies decide who joins
-- the new ones). So a lapsed member's socket hears nothing the room says after their lapse.

alter table public.rooms add column lapses_counted_at timestamptz not null default now();
comment on column public.rooms.lapses_counted_at is 'Gated memberships that lapsed before this moved the access epoch already.';

create index memberships_room_verified_idx on public.memberships (room_id, verified_at) where role = 'member';

create or replace function private.current_room_topic(kind text, room uuid)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  topic text;
begin
  update public.rooms r
    set access_epoch = r.access_epoch + 1,
        lapses_counted_at = now()
    where r.id = room
      and r.visibility = 'gated'
      and exists (
        select 1
        from public.memberships m
        where m.room_id = room
          and m.role = 'member'
          and m.verified_at <= now() - private.gated_membership_lifetime()
          and m.verified_at > r.lapses_counted_at - private.gated_membership_lifetime()
      );
  select private.room_topic(kind, r.id, r.access_epoch) into topic from public.rooms r where r.id = room;
  return topic;
end;
$$;
comment on function private.current_room_topic(text, uuid) is 'The topic the database sends a room''s channel (room or session) to now, after moving the epoch past any gated membership that lapsed since it last looked.';
