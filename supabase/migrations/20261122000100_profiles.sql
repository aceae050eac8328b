-- Profiles: one per auth user, created by a trigger with a unique generated username.
-- Readable by everyone; only the owner may change their own (username, display name, bio, avatar).

-- Functions the API must not expose live in `private`, which PostgREST does not serve.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Words a username may not be, because they are (or may become) routes or would mislead.
create function private.is_reserved_username(candidate text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select lower(candidate) = any (array[
    'about', 'account', 'admin', 'administrator', 'api', 'app', 'auth', 'callback', 'confirm',
    'cuepoint', 'dashboard', 'edit', 'error', 'explore', 'help', 'home', 'login', 'logout',
    'me', 'mod', 'moderator', 'new', 'null', 'owner', 'p', 'password', 'privacy', 'r', 'room',
    'rooms', 'root', 'search', 'settings', 'signin', 'signout', 'signup', 'static', 'support',
    'system', 'terms', 'u', 'undefined', 'user', 'users'
  ]);
$$;

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null,
  display_name text not null,
  bio text not null default '',
  avatar_path text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_username_key unique (username),
  constraint profiles_username_format check (username ~ '^[a-z0-9_]{3,24}$'),
  constraint profiles_username_not_reserved check (not private.is_reserved_username(username)),
  constraint profiles_display_name_length check (char_length(btrim(display_name)) between 1 and 50),
  constraint profiles_bio_length check (char_length(bio) <= 280),
  constraint profiles_avatar_path_in_own_folder check (avatar_path is null or avatar_path like id::text || '/_%')
);

comment on table public.profiles is 'Public profile of each user; created by private.create_profile_for_new_user().';
comment on constraint profiles_username_format on public.profiles is 'Usernames use 3–24 lowercase letters, digits or _';
comment on constraint profiles_username_not_reserved on public.profiles is 'That username is reserved';

alter table public.profiles enable row level security;

-- Privileges first (what a role may attempt), then policies (which rows).
revoke all on public.profiles from anon, authenticated;
grant select on public.profiles to anon, authenticated;
grant update (username, display_name, bio, avatar_path) on public.profiles to authenticated;

create policy "Profiles are readable by everyone"
  on public.profiles for select
  to anon, authenticated
  using (true);

create policy "Users update their own profile"
  on public.profiles for update
  to authenticated
  using ((select auth.uid()) = id)
  with check ((select auth.uid()) = id);

create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create trigger profiles_touch_updated_at
  before update on public.profiles
  for each row execute function private.touch_updated_at();

-- The username a new account starts with: the one asked for at sign-up when it is valid, else
-- one derived from the email's local part or the wallet address, made unique with a suffix.
create function private.username_base(meta jsonb, email text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  wanted text := lower(coalesce(meta ->> 'username', ''));
  address text := lower(coalesce(meta -> 'custom_claims' ->> 'address', substring(meta ->> 'sub' from '0x[0-9a-fA-F]{40}'), ''));
  base text;
begin
  if wanted ~ '^[a-z0-9_]{3,24}$' and not private.is_reserved_username(wanted) then
    return wanted;
  end if;
  if coalesce(email, '') <> '' then
    base := regexp_replace(lower(split_part(email, '@', 1)), '[^a-z0-9_]+', '_', 'g');
  elsif address ~ '^0x[0-9a-f]{40}$' then
    base := 'eth_' || substr(address, 3, 6);
  else
    base := 'user';
  end if;
  base := btrim(left(base, 18), '_');
  if char_length(base) < 3 or private.is_reserved_username(base) then
    base := 'user_' || base;
  end if;
  return left(base, 18);
end;
$$;

create function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  base text := private.username_base(meta, new.email);
  candidate text := base;
  shown_name text;
  attempt int := 0;
begin
  shown_name := left(btrim(coalesce(meta ->> 'display_name', meta ->> 'full_name', meta ->> 'name', '')), 50);
  loop
    insert into public.profiles (id, username, display_name)
    values (new.id, candidate, coalesce(nullif(shown_name, ''), candidate))
    on conflict (username) do nothing;
    exit when found;
    attempt := attempt + 1;
    if attempt > 50 then
      raise exception 'could not generate a unique username for %', new.id;
    end if;
    -- 18 characters of base + '_' + up to 5 digits stays within the 24-character limit
    candidate := base || '_' || (floor(random() * (case when attempt < 10 then 9000 else 90000 end)) + 1000)::int;
  end loop;
  return new;
end;
$$;

revoke all on function private.create_profile_for_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();
