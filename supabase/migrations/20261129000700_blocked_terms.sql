-- Blocked terms: comments containing one are held for review.
--
-- The room's owner keeps the list (insert and delete under RLS; the owner and moderators read it;
-- each change is logged as blocked_terms_changed). A term matches a comment whole, as words:
-- case and accents do not matter (both sides are folded with the unaccent extension's dictionary
-- and lower()), and it must stand on its own ('spam' holds "SPAM!" and "spám", not "spamalot").
-- Whitespace inside a term matches any run of whitespace.
--
-- A comment is checked as it is written and as it is edited, against one regular expression per
-- room compiled from the room's terms whenever they change (private.room_term_patterns), so a
-- comment costs one index lookup and one match whatever the number of terms, and nothing at all in
-- a room without terms. A matching comment gets held_at (an edit never releases it: only approval
-- or removal does); comments by the owner and moderators are never held. public.approve_comment
-- releases a held comment; public.remove_content removes it.

create extension if not exists unaccent with schema extensions;

-- The form both a comment and a term are compared in: lower case, without accents.
-- unaccent() is stable (its dictionary could change); naming the dictionary makes this wrapper
-- safe to treat as immutable, so an index can use it.
create function private.fold_words(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, value));
$$;

comment on function private.fold_words(text) is 'Text lower-cased and without accents: how comments and blocked terms are compared.';
revoke all on function private.fold_words(text) from public;
-- The unique index on terms evaluates it as whoever adds one.
grant execute on function private.fold_words(text) to anon, authenticated, service_role;

create table public.room_blocked_terms (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references public.rooms (id) on delete cascade,
  term text not null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references public.profiles (id) on delete set null,
  constraint room_blocked_terms_length check (char_length(term) between 1 and 60),
  constraint room_blocked_terms_trimmed check (term = btrim(term) and private.has_visible_text(term)),
  constraint room_blocked_terms_characters check (private.is_line_characters(term))
);

comment on table public.room_blocked_terms is 'Words and phrases that hold a comment for review in the room: kept by its owner, read by its owner and moderators.';
comment on constraint room_blocked_terms_length on public.room_blocked_terms is 'Blocked terms are 1–60 characters';
comment on constraint room_blocked_terms_trimmed on public.room_blocked_terms is 'Enter a word or phrase, without spaces around it';
comment on constraint room_blocked_terms_characters on public.room_blocked_terms is 'Blocked terms can''t contain control characters';

create unique index room_blocked_terms_once on public.room_blocked_terms (room_id, private.fold_words(term));
comment on index public.room_blocked_terms_once is 'That term is already blocked';
create index room_blocked_terms_created_by_idx on public.room_blocked_terms (created_by) where created_by is not null;

alter table public.room_blocked_terms enable row level security;

create policy "The owner and moderators read the room's blocked terms"
  on public.room_blocked_terms for select
  to authenticated
  using ((select private.moderates_room(room_blocked_terms.room_id)));

create policy "The owner adds blocked terms"
  on public.room_blocked_terms for insert
  to authenticated
  with check (
    (select private.room_role(room_blocked_terms.room_id)) = 'owner'
    and created_by = (select auth.uid())
  );

create policy "The owner removes blocked terms"
  on public.room_blocked_terms for delete
  to authenticated
  using ((select private.room_role(room_blocked_terms.room_id)) = 'owner');

revoke all on public.room_blocked_terms from anon, authenticated, service_role;
grant select, delete on public.room_blocked_terms to authenticated;
grant insert (room_id, term) on public.room_blocked_terms to authenticated;
grant select, insert, delete on public.room_blocked_terms to service_role;

-- Each room's terms as one regular expression over folded text (no row: the room blocks nothing).
create table private.room_term_patterns (
  room_id uuid primary key references public.rooms (id) on delete cascade,
  pattern text not null
);

comment on table private.room_term_patterns is 'Per room, its blocked terms compiled into one regular expression over folded text; rebuilt by a trigger whenever they change.';
alter table private.room_term_patterns enable row level security;
create policy "Term patterns are the database's alone" on private.room_term_patterns
  as restrictive to anon, authenticated using (false) with check (false);
revoke all on private.room_term_patterns from public, anon, authenticated, service_role;

-- One term as a piece of the expression: folded, every character that is not a letter, digit or
-- space escaped, each run of whitespace matching any run.
create function private.term_pattern(term text)
returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(
    regexp_replace(private.fold_words(btrim(term)), '([^[:alnum:][:space:]])', '\\\1', 'g'),
    '[[:space:]]+', '[[:space:]]+', 'g');
$$;

revoke all on function private.term_pattern(text) from public, anon, authenticated;

-- The room's terms: at most 200, the pattern rebuilt, the change logged.
create function private.limit_blocked_terms()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.rooms r where r.id = new.room_id for update;
  if (select count(*) from public.room_blocked_terms t where t.room_id = new.room_id) >= 200 then
    raise exception 'A room blocks up to 200 terms' using errcode = '23514', constraint = 'room_blocked_terms_limit';
  end if;
  return new;
end;
$$;

create trigger room_blocked_terms_limit
  before insert on public.room_blocked_terms
  for each row execute function private.limit_blocked_terms();

create function private.compile_blocked_terms()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.room_blocked_terms := case when tg_op = 'DELETE' then old else new end;
  compiled text;
begin
  -- The room itself is going: its terms and pattern go with it, and there is no log to write.
  if not exists (select 1 from public.rooms r where r.id = changed.room_id) then
    return null;
  end if;
  select '(^|[^[:alnum:]_])(' || string_agg(private.term_pattern(t.term), '|' order by t.term) || ')($|[^[:alnum:]_])'
    into compiled
    from public.room_blocked_terms t where t.room_id = changed.room_id;
  if compiled is null then
    delete from private.room_term_patterns p where p.room_id = changed.room_id;
  else
    insert into private.room_term_patterns (room_id, pattern) values (changed.room_id, compiled)
    on conflict (room_id) do update set pattern = excluded.pattern;
  end if;
  perform private.log_moderation(changed.room_id, 'blocked_terms_changed', null, null, null,
    format('%s "%s"', case when tg_op = 'DELETE' then 'Removed' else 'Added' end, changed.term));
  return null;
end;
$$;

create trigger room_blocked_terms_compile
  after insert or delete on public.room_blocked_terms
  for each row execute function private.compile_blocked_terms();

-- ---------------------------------------------------------------------------------------------
-- Holding comments
-- ---------------------------------------------------------------------------------------------
create function private.hold_blocked_terms()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  compiled text;
begin
  select p.pattern into compiled from private.room_term_patterns p where p.room_id = new.room_id;
  if compiled is null or new.held_at is not null or private.fold_words(new.body) !~ compiled then
    return new;
  end if;
  if exists (select 1 from public.memberships m
             where m.room_id = new.room_id and m.user_id = new.author_id and m.role in ('owner', 'moderator')) then
    return new;
  end if;
  new.held_at := now();
  return new;
end;
$$;

comment on function private.hold_blocked_terms() is 'Holds a comment (held_at) whose words contain one of its room''s blocked terms, unless its author moderates the room.';

-- After moments_from_post (triggers of one kind run in name order), which sets the room.
create trigger moments_hold_blocked_terms
  before insert or update of body on public.moments
  for each row execute function private.hold_blocked_terms();

create function public.approve_comment(moment_id uuid, reason text default '')
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  item record;
begin
  select * into item from private.moderated_item(null, approve_comment.moment_id);
  perform private.require_moderator(item.room_id, 'approve held comments');
  if char_length(coalesce(reason, '')) > 500 then
    raise exception 'Reasons are up to 500 characters' using errcode = '22023';
  end if;
  if item.held_at is null then
    raise exception 'That comment isn''t held' using errcode = 'PT409';
  end if;
  update public.moments c set held_at = null where c.id = approve_comment.moment_id;
  perform private.log_moderation(item.room_id, 'approved', item.author_id, item.post_id, approve_comment.moment_id, coalesce(reason, ''));
  perform private.signal_moderators(item.room_id, item.post_id, approve_comment.moment_id, 'approved');
end;
$$;

comment on function public.approve_comment(uuid, text) is 'The owner or a moderator releases a held comment: it is shown to everyone who may read the room.';
revoke all on function public.approve_comment(uuid, text) from public, anon;
grant execute on function public.approve_comment(uuid, text) to authenticated, service_role;
