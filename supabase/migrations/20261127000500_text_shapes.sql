-- The shapes of the free text a member writes, held by the database as by the forms
-- (lib/validation/text.ts; both sides run the cases in tests/fixtures/text-shapes.json).
--
-- A line (a display name, a room's name, a post's title) is one line of visible text: at least one
-- character that is not blank (whitespace, zero-width and filler characters), no control
-- characters, and none of the characters that reorder text around them (bidi embeddings,
-- overrides and isolates: U+202A–U+202E, U+2066–U+2069), which let "‮gnp.exe" pass for
-- "exe.png". Right-to-left writing itself needs none of them.
-- A body (a bio, a room's description, a post's text, a comment) may have line breaks and tabs and
-- any writing, but no other control characters. A comment must also show something.
-- Lengths count characters (code points), as the forms do, on the text as stored.
--
-- The new and redefined checks are NOT VALID: rows written before keep their text until changed;
-- every insert and update is checked.

create function private.has_visible_text(value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select value ~ '[^\t\n\v\f\r \u0085\u00a0\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufeff\uffa0]';
$$;
comment on function private.has_visible_text(text) is 'Whether the text has a character that is not blank (whitespace, zero-width or filler).';

create function private.is_line_characters(value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select value !~ '[\u0001-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]';
$$;
comment on function private.is_line_characters(text) is 'No control characters and no bidi embeddings, overrides or isolates: what a name or title may not contain.';

create function private.is_body_characters(value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select value !~ '[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]';
$$;
comment on function private.is_body_characters(text) is 'No control characters but tab, line feed and carriage return: what a bio, description, post text or comment may not contain.';

-- Checks run as the writer: every role that writes these tables may call them.
revoke all on function private.has_visible_text(text), private.is_line_characters(text), private.is_body_characters(text) from public;
grant execute on function private.has_visible_text(text), private.is_line_characters(text), private.is_body_characters(text) to anon, authenticated, service_role;

-- Lines: at most N characters with something visible (profiles.display_name had no cap on its raw length).
alter table public.profiles drop constraint profiles_display_name_length;
alter table public.profiles add constraint profiles_display_name_length
  check (char_length(display_name) <= 50 and private.has_visible_text(display_name)) not valid;
alter table public.rooms drop constraint rooms_name_length;
alter table public.rooms add constraint rooms_name_length
  check (char_length(name) <= 80 and private.has_visible_text(name)) not valid;
alter table public.posts drop constraint posts_title_length;
alter table public.posts add constraint posts_title_length
  check (char_length(title) <= 120 and private.has_visible_text(title)) not valid;
alter table public.moments drop constraint moments_body_length;
alter table public.moments add constraint moments_body_length
  check (char_length(body) <= 1000 and private.has_visible_text(body)) not valid;
comment on constraint moments_body_length on public.moments is 'Comments are 1–1000 characters';

alter table public.profiles add constraint profiles_display_name_characters check (private.is_line_characters(display_name)) not valid;
alter table public.rooms add constraint rooms_name_characters check (private.is_line_characters(name)) not valid;
alter table public.posts add constraint posts_title_characters check (private.is_line_characters(title)) not valid;
alter table public.profiles add constraint profiles_bio_characters check (private.is_body_characters(bio)) not valid;
alter table public.rooms add constraint rooms_description_characters check (private.is_body_characters(description)) not valid;
alter table public.posts add constraint posts_body_characters check (private.is_body_characters(body)) not valid;
alter table public.moments add constraint moments_body_characters check (private.is_body_characters(body)) not valid;

-- A new account's display name comes from its sign-up metadata, which the person chose: the
-- characters a name may not have are dropped, and a name with nothing visible left falls back to
-- the generated username (before, such metadata would have failed the whole sign-up).
create or replace function private.create_profile_for_new_user()
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
  shown_name := regexp_replace(coalesce(meta ->> 'display_name', meta ->> 'full_name', meta ->> 'name', ''), '[\u0001-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]', '', 'g');
  shown_name := left(btrim(shown_name), 50);
  if not private.has_visible_text(shown_name) then
    shown_name := null;
  end if;
  loop
    insert into public.profiles (id, username, display_name)
    values (new.id, candidate, coalesce(shown_name, candidate))
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
