-- Stored file paths are checked as path segments, not by prefix.
--
-- `avatar_path`, `cover_path` and `storage_path` were checked with `like '<folder>/_%'`, so
-- `<my id>/../<their id>/file.png` passed: a URL built from it is normalised by the browser (and
-- by HTTP clients) to `<their id>/file.png`, and a profile or room showed someone else's file. Now a
-- path is the owner's folder exactly, then one or more segments, none of them empty, `.` or `..`,
-- with no backslash (read as a separator by some clients) and no control character.

create function private.is_path_in_folder(object_path text, folder text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select left(object_path, length(folder) + 1) = folder || '/'
    and length(object_path) > length(folder) + 1
    and object_path !~ '[\\[:cntrl:]]'
    and not exists (
      select 1 from unnest(string_to_array(substr(object_path, length(folder) + 2), '/')) as segment
      where segment in ('', '.', '..')
    );
$$;

comment on function private.is_path_in_folder(text, text) is
  'Whether object_path lies in folder: folder/ then segments, none empty, "." or "..", no backslash or control character.';

-- The checks run as the caller (the API's roles write these columns).
revoke all on function private.is_path_in_folder(text, text) from public;
grant execute on function private.is_path_in_folder(text, text) to anon, authenticated, service_role;

-- A stored avatar or cover that escapes its folder shows someone else's file: cleared (the person
-- or room shows the default picture until a new one is uploaded).
update public.profiles set avatar_path = null
  where avatar_path is not null and not private.is_path_in_folder(avatar_path, id::text);
update public.rooms set cover_path = null
  where cover_path is not null and not private.is_path_in_folder(cover_path, id::text);

alter table public.profiles
  drop constraint profiles_avatar_path_in_own_folder,
  add constraint profiles_avatar_path_in_own_folder
    check (avatar_path is null or private.is_path_in_folder(avatar_path, id::text));

alter table public.rooms
  drop constraint rooms_cover_path_in_own_folder,
  add constraint rooms_cover_path_in_own_folder
    check (cover_path is null or private.is_path_in_folder(cover_path, id::text));

-- An upload post's path names its own file object (the media bucket must hold that exact name), so
-- one that escapes its folder points at the uploader's own object under an odd name: existing rows
-- are left as they are (`not valid`), and every new or changed path is checked.
alter table public.posts
  drop constraint posts_storage_path_in_own_folder,
  add constraint posts_storage_path_in_own_folder
    check (storage_path is null or private.is_path_in_folder(storage_path, room_id::text || '/' || author_id::text)) not valid;

comment on constraint posts_storage_path_in_own_folder on public.posts is 'Uploads go in your own folder of the room';
