-- A token admits one account to a gated room, not one after another.
--
-- Before, account A linked a qualifying wallet, joined a gated room and unlinked the wallet; the
-- membership stayed, so account B linked the same wallet and joined too, and so on, each keeping
-- the room. Now:
-- - unlinking a wallet (or its account going) ends at once the gated memberships it qualified,
--   ordinary ones only: owners and moderators keep their place whatever they hold, as the hourly
--   re-check does;
-- - one wallet backs at most one membership per room (a unique index, so no race can pass it).

-- Existing memberships that share a wallet in one room: the first verified keeps it; later ordinary
-- members lose the membership it gave them (they were let in by a token already counted), later
-- owners and moderators keep their place without it.
with ranked as (
  select m.room_id, m.user_id, m.role,
         row_number() over (partition by m.room_id, m.verified_wallet order by m.verified_at nulls last, m.joined_at, m.user_id) as place
  from public.memberships m
  where m.verified_wallet is not null
)
delete from public.memberships m
  using ranked r
  where m.room_id = r.room_id and m.user_id = r.user_id and r.place > 1 and r.role = 'member';

with ranked as (
  select m.room_id, m.user_id,
         row_number() over (partition by m.room_id, m.verified_wallet order by m.verified_at nulls last, m.joined_at, m.user_id) as place
  from public.memberships m
  where m.verified_wallet is not null
)
update public.memberships m set verified_wallet = null
  from ranked r
  where m.room_id = r.room_id and m.user_id = r.user_id and r.place > 1;

create unique index memberships_one_per_wallet on public.memberships (room_id, verified_wallet)
  where verified_wallet is not null;

comment on index public.memberships_one_per_wallet is 'One wallet backs at most one membership per room.';

-- A wallet's gated memberships end with its link (a deleted account's wallets go with it, and so do
-- its memberships; another account may link the wallet only after this one is gone).
create function private.end_memberships_of_unlinked_wallet()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.memberships m
    where m.verified_wallet = old.address
      and m.user_id = old.user_id
      and m.role = 'member'
      and exists (select 1 from public.rooms r where r.id = m.room_id and r.visibility = 'gated');
  return null;
end;
$$;

revoke all on function private.end_memberships_of_unlinked_wallet() from public, anon, authenticated;

create trigger wallets_end_gated_memberships
  after delete on public.wallets
  for each row execute function private.end_memberships_of_unlinked_wallet();
