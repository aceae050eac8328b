-- Room covers bucket (declared in config.toml: public, 5 MB, png/jpeg/webp).
-- Anyone may read; a room's owner and moderators write inside the folder named by the room's id.
-- And the settings page's member list, which shows each member's wallet by name.

-- Whether the caller is the owner or a moderator of the room whose id is the object's first folder.
-- A folder name that is not a uuid is simply no room's folder: the CASE keeps the cast from ever
-- seeing it (a failed cast would turn a refusal into an error).
create function private.can_write_room_cover(object_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select m.role in ('owner', 'moderator')
     from public.memberships m
     where m.user_id = (select auth.uid())
       and m.room_id = (
         case when (storage.foldername(object_name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then ((storage.foldername(object_name))[1])::uuid
         end)),
    false);
$$;

revoke all on function private.can_write_room_cover(text) from public;
grant execute on function private.can_write_room_cover(text) to anon, authenticated, service_role;

create policy "Room covers are readable by everyone"
  on storage.objects for select
  to anon, authenticated
  using (bucket_id = 'room-covers');

create policy "Owner and moderators upload the room's cover"
  on storage.objects for insert
  to authenticated
  with check (bucket_id = 'room-covers' and private.can_write_room_cover(name));

create policy "Owner and moderators replace the room's cover"
  on storage.objects for update
  to authenticated
  using (bucket_id = 'room-covers' and private.can_write_room_cover(name))
  with check (bucket_id = 'room-covers' and private.can_write_room_cover(name));

create policy "Owner and moderators remove the room's cover"
  on storage.objects for delete
  to authenticated
  using (bucket_id = 'room-covers' and private.can_write_room_cover(name));

-- The wallets the settings page shows next to members, several profiles at once: the same columns
-- profile_wallets gives anyone for one profile (the wallets table itself stays owner-only).
create function public.profiles_wallets(profile_ids uuid[])
returns table (user_id uuid, address text, ens_name text, ens_avatar text)
language sql
stable
security definer
set search_path = ''
as $$
  select w.user_id, w.address, w.ens_name, w.ens_avatar
  from public.wallets w
  where w.user_id = any (profile_ids)
  order by w.user_id, w.verified_at, w.address;
$$;

comment on function public.profiles_wallets(uuid[]) is 'Address, ENS name and avatar of the wallets of the given profiles (what profile_wallets shows for one).';

revoke all on function public.profiles_wallets(uuid[]) from public;
grant execute on function public.profiles_wallets(uuid[]) to anon, authenticated, service_role;
