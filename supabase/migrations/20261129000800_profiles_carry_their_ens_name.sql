-- One name per person, everywhere: a profile carries the ENS name of its first linked wallet that has
-- one (by when it was verified, then address — the rule who_is_here already follows), so every read
-- that shows a person (comments, posts, the header, presence) has their display name and ENS name in
-- one row, without reading wallets. Kept by the database from wallets; nobody writes it (no column
-- grant); public like the rest of the profile and like the ENS name itself.
alter table public.profiles add column ens_name text;
comment on column public.profiles.ens_name is 'The ENS name of the person''s first linked wallet that has one; kept from wallets by the database.';

create function private.profile_ens_name(person uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select w.ens_name from public.wallets w
  where w.user_id = person and w.ens_name is not null
  order by w.verified_at, w.address
  limit 1;
$$;

create function private.keep_profile_ens_name()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update public.profiles p set ens_name = private.profile_ens_name(old.user_id)
    where p.id = old.user_id and p.ens_name is distinct from private.profile_ens_name(old.user_id);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.profiles p set ens_name = private.profile_ens_name(new.user_id)
    where p.id = new.user_id and p.ens_name is distinct from private.profile_ens_name(new.user_id);
  end if;
  return null;
end;
$$;

revoke all on function private.profile_ens_name(uuid) from public, anon, authenticated;
revoke all on function private.keep_profile_ens_name() from public, anon, authenticated;

create trigger wallets_keep_profile_ens_name
  after insert or delete or update of ens_name, user_id, verified_at on public.wallets
  for each row execute function private.keep_profile_ens_name();

update public.profiles p set ens_name = private.profile_ens_name(p.id)
where exists (select 1 from public.wallets w where w.user_id = p.id and w.ens_name is not null);
