-- Searching posts and comments by their words: the directory's search on the home page also finds
-- posts (by title and text) and comments (by text) in the rooms the caller may read, best match first.
--
-- Words are compared in the text search configuration public.cuepoint_search: the `simple`
-- parser and dictionary (lower case, no stemming) behind the unaccent extension's dictionary, so
-- "Beyonce" finds "Beyoncé" and "cafe" finds "CAFÉ". Not `english`: track names and talk about
-- them are in many languages, and English stemming mangles the others ("les" and "les", "rose" and
-- "ros" …) while stemming English words would rarely find what a prefix does not. Instead the last
-- word typed (of two letters or more, outside quotes) also matches as a prefix: "daft pun" finds
-- "Daft Punk".
--
-- The words are indexed as expressions (GIN), not stored columns: a stored tsvector on posts and
-- moments would travel in every row the live channel sends (private.broadcast_room_change sends
-- the whole row) and every `select *`. A configuration named as a constant makes to_tsvector()
-- immutable — the unaccent rules live inside the configuration, so no immutable wrapper around
-- unaccent() is needed here.
--
-- Who finds what: the tables' own policies decide. public.search_content is SECURITY INVOKER and
-- reads the rows it returns from public.posts and public.moments as the caller, so a gated room's
-- content is found only by its current members, and hidden, held and deleted items never reach
-- anyone the policies keep them from. One step cannot run as the caller: Postgres will not use an
-- index for a condition that is not leakproof (`@@` is not) ahead of a table's row-level security,
-- so under RLS every search would read and parse every comment. private.search_hits therefore finds
-- and ranks candidate ids with the indexes, as the tables' owner, among rows the caller could read
-- (rooms public or theirs, nothing hidden, held or deleted — the same rules, so pages come out
-- full), and returns ids and ranks only; public.search_content then reads those ids through RLS.

create text search configuration public.cuepoint_search (copy = pg_catalog.simple);
alter text search configuration public.cuepoint_search
  alter mapping for asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
  with extensions.unaccent, pg_catalog.simple;
comment on text search configuration public.cuepoint_search is
  'How posts and comments are searched: words lower-cased and without accents, not stemmed.';

-- The documents, exactly as the indexes and the functions below spell them (they must match for
-- the planner to use the indexes). A post's title weighs more than its text; a comment's text
-- weighs as a post's text.
create index posts_search_idx on public.posts using gin (
  (setweight(to_tsvector('public.cuepoint_search'::regconfig, title), 'A')
   || setweight(to_tsvector('public.cuepoint_search'::regconfig, body), 'B')));
create index moments_search_idx on public.moments using gin (
  (setweight(to_tsvector('public.cuepoint_search'::regconfig, body), 'B')))
  where deleted_at is null;

comment on index public.posts_search_idx is 'Posts by the words of their title and text (public.cuepoint_search).';
comment on index public.moments_search_idx is 'Comments by their words (public.cuepoint_search); deleted ones are left out.';

-- What a person typed as a query: websearch syntax ("quoted phrase", or, -word) that never fails
-- on any input, at most 200 characters read, and the last word a prefix when it was typed last
-- (not inside quotes, two letters or more). Null when nothing searchable was typed.
create function private.search_query(typed text)
returns tsquery
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  input text := left(coalesce(typed, ''), 200);
  parsed tsquery;
  words text;
begin
  if btrim(input) = '' then
    return null;
  end if;
  parsed := websearch_to_tsquery('public.cuepoint_search'::regconfig, input);
  if numnode(parsed) = 0 then
    return null;
  end if;
  words := parsed::text;
  if input ~ '[[:alnum:]]\s*$' and words ~ '''(?:[^'']|''''){2,}''$' then
    words := words || ':*';
    parsed := words::tsquery;
  end if;
  return parsed;
end;
$$;

comment on function private.search_query(text) is 'What a search box sent, as a tsquery (websearch syntax, the last word also a prefix); null when there is nothing to search for.';
revoke all on function private.search_query(text) from public;
grant execute on function private.search_query(text) to anon, authenticated, service_role;

-- Candidates for one page, best first: ids and ranks only. Runs as the tables' owner so the GIN
-- indexes can answer (see above); limited to what the caller's room access and the tables'
-- hiding rules let them read. public.search_content reads the rows themselves under RLS.
create function private.search_hits(search tsquery, max_rows int, before_rank real, before_id uuid)
returns table (kind text, id uuid, rank real)
language sql
stable
security definer
set search_path = ''
as $$
  with readable as (
    select r.id from public.rooms r where r.visibility = 'public'
    union
    select private.my_room_ids()
  ),
  hits as (
    select 'post'::text as kind, p.id,
           ts_rank(setweight(to_tsvector('public.cuepoint_search'::regconfig, p.title), 'A')
                   || setweight(to_tsvector('public.cuepoint_search'::regconfig, p.body), 'B'), search, 1) as rank
    from public.posts p
    where (setweight(to_tsvector('public.cuepoint_search'::regconfig, p.title), 'A')
           || setweight(to_tsvector('public.cuepoint_search'::regconfig, p.body), 'B')) @@ search
      and p.hidden_at is null
      and p.room_id in (select readable.id from readable)
    union all
    select 'comment'::text, m.id,
           ts_rank(setweight(to_tsvector('public.cuepoint_search'::regconfig, m.body), 'B'), search, 1)
    from public.moments m
    join public.posts p on p.id = m.post_id and p.hidden_at is null
    where setweight(to_tsvector('public.cuepoint_search'::regconfig, m.body), 'B') @@ search
      and m.deleted_at is null
      and m.hidden_at is null
      and m.held_at is null
      and m.room_id in (select readable.id from readable)
  )
  select hits.kind, hits.id, hits.rank
  from hits
  where before_rank is null or (hits.rank, hits.id) < (before_rank, coalesce(before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))
  order by hits.rank desc, hits.id desc
  limit least(greatest(coalesce(max_rows, 0), 0), 101);
$$;

comment on function private.search_hits(tsquery, int, real, uuid) is 'Ids and ranks of posts and comments matching a search among those the caller may read, one page from a cursor; public.search_content reads the rows under RLS.';
revoke all on function private.search_hits(tsquery, int, real, uuid) from public;
grant execute on function private.search_hits(tsquery, int, real, uuid) to anon, authenticated, service_role;

-- One page of matches, best first (rank, then id). Pass the last row's rank and id as before_rank
-- and before_id for the next page. The snippet and title carry the matched words between
-- U+E000 and U+E001 (characters removed from the text first), for the page to emphasise.
create function public.search_content(query text, page_size int default 20, before_rank real default null, before_id uuid default null)
returns table (
  kind text,
  id uuid,
  post_id uuid,
  room_slug text,
  room_name text,
  post_title text,
  snippet text,
  at_seconds double precision,
  author_username text,
  author_display_name text,
  created_at timestamptz,
  rank real
)
language sql
stable
security invoker
set search_path = ''
as $$
  with search as (
    select private.search_query(query) as q
  ),
  hits as materialized (
    select h.kind, h.id, h.rank
    from search, private.search_hits(search.q, least(greatest(coalesce(page_size, 20), 1), 100), before_rank, before_id) h
    where search.q is not null
  ),
  found as (
    select 'post'::text as kind, p.id, p.id as post_id, p.room_id, p.title, p.body as text, null::double precision as at_seconds,
           p.author_id, p.created_at, h.rank
    from hits h join public.posts p on p.id = h.id
    where h.kind = 'post'
    union all
    select 'comment', m.id, m.post_id, m.room_id, p.title, m.body, m.at_seconds, m.author_id, m.created_at, h.rank
    from hits h
    join public.moments m on m.id = h.id and m.deleted_at is null
    join public.posts p on p.id = m.post_id
    where h.kind = 'comment'
  )
  select f.kind, f.id, f.post_id, r.slug, r.name,
         ts_headline('public.cuepoint_search'::regconfig, translate(f.title, U&'\E000\E001', ''), search.q,
                     U&'StartSel=\E000, StopSel=\E001, HighlightAll=true'),
         case when f.kind = 'post' and not (setweight(to_tsvector('public.cuepoint_search'::regconfig, f.text), 'B') @@ search.q)
              then left(translate(f.text, U&'\E000\E001', ''), 160)
              else ts_headline('public.cuepoint_search'::regconfig, translate(f.text, U&'\E000\E001', ''), search.q,
                               U&'StartSel=\E000, StopSel=\E001, MaxWords=28, MinWords=12, ShortWord=2, MaxFragments=1')
         end,
         f.at_seconds, a.username, a.display_name, f.created_at, f.rank
  from found f
  cross join search
  join public.rooms r on r.id = f.room_id
  left join public.profiles a on a.id = f.author_id
  order by f.rank desc, f.id desc;
$$;

comment on function public.search_content(text, int, real, uuid) is 'Posts and comments whose words match a search, best first, among those the caller may read (the tables'' policies decide); matched words marked with U+E000…U+E001.';
revoke all on function public.search_content(text, int, real, uuid) from public;
grant execute on function public.search_content(text, int, real, uuid) to anon, authenticated, service_role;
