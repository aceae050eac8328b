-- Email digests of unread notifications, and one-click unsubscribe (RFC 8058).
--
-- The notification-digest edge function (service role) asks who is due, claims each person's
-- digest (which records last_digest_at and issues the email's unsubscribe tokens in one
-- transaction), sends it, and gives the claim back when sending failed. The database keeps the
-- rules: at most one digest per person per hour, only the kinds they asked for by email, only
-- unread notifications that are not held back, and words only where the person may still read them.
-- An unsubscribe link carries a random token that is stored only as its SHA-256; anyone holding the
-- link (no session needed: mail clients post it without cookies) can use it once, and it changes
-- nothing but its own person's email kinds.

-- ---------------------------------------------------------------------------------------------
-- Tokens

create table private.email_unsubscribe_tokens (
  id uuid primary key default gen_random_uuid(),
  token_hash bytea not null,
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  constraint email_unsubscribe_tokens_hash_length check (octet_length(token_hash) = 32),
  constraint email_unsubscribe_tokens_kind check (kind is null or kind in ('reply', 'mention', 'reaction', 'session_started', 'role_changed', 'membership_ended', 'moderation'))
);

comment on table private.email_unsubscribe_tokens is 'One-click unsubscribe links sent in digest emails: the SHA-256 of a random token, whose person it unsubscribes, from which kind (null: all email), and when it was used.';

create unique index email_unsubscribe_tokens_hash_key on private.email_unsubscribe_tokens (token_hash);
create index email_unsubscribe_tokens_user_idx on private.email_unsubscribe_tokens (user_id, created_at);

alter table private.email_unsubscribe_tokens enable row level security;
revoke all on table private.email_unsubscribe_tokens from public, anon, authenticated, service_role;

create policy "No API role reads or writes unsubscribe tokens"
  on private.email_unsubscribe_tokens
  for all
  to anon, authenticated, service_role
  using (false)
  with check (false);

create function private.unsubscribe_token_hash(token text)
returns bytea
language sql
immutable
set search_path = ''
as $$
  select sha256(convert_to(token, 'UTF8'));
$$;

comment on function private.unsubscribe_token_hash(text) is 'What is stored of an unsubscribe token: its SHA-256.';
revoke all on function private.unsubscribe_token_hash(text) from public, anon, authenticated;

-- 32 random bytes as unpadded base64url: 43 characters of A-Z a-z 0-9 - _.
create function private.issue_unsubscribe_token(person uuid, what text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  token text := translate(encode(extensions.gen_random_bytes(32), 'base64'), E'+/=\n', '-_');
begin
  insert into private.email_unsubscribe_tokens (token_hash, user_id, kind)
  values (private.unsubscribe_token_hash(token), person, what);
  return token;
end;
$$;

comment on function private.issue_unsubscribe_token(uuid, text) is 'A new unsubscribe token for a person and a kind (null: all email); only its hash is kept.';
revoke all on function private.issue_unsubscribe_token(uuid, text) from public, anon, authenticated;

create function private.is_unsubscribe_token(token text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(token ~ '^[A-Za-z0-9_-]{43}$', false);
$$;

comment on function private.is_unsubscribe_token(text) is 'Whether a text has the shape of an unsubscribe token (43 characters of base64url).';
revoke all on function private.is_unsubscribe_token(text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Unsubscribing (anyone holding the link)

create function public.unsubscribe_from_email(token text)
returns table (outcome text, kind text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  stored private.email_unsubscribe_tokens;
begin
  if private.is_unsubscribe_token(unsubscribe_from_email.token) then
    select t.* into stored from private.email_unsubscribe_tokens t
    where t.token_hash = private.unsubscribe_token_hash(unsubscribe_from_email.token)
    for update;
  end if;
  if stored.id is null then
    raise exception 'That unsubscribe link isn''t valid. You can choose which emails you get on your account page.'
      using errcode = '22023';
  end if;
  if stored.used_at is not null then
    return query select 'already_used'::text, stored.kind;
    return;
  end if;
  update public.notification_settings s
  set email_kinds = case when stored.kind is null then '{}'::text[] else array_remove(s.email_kinds, stored.kind) end
  where s.user_id = stored.user_id;
  update private.email_unsubscribe_tokens t set used_at = now() where t.id = stored.id;
  return query select 'unsubscribed'::text, stored.kind;
end;
$$;

comment on function public.unsubscribe_from_email(text) is 'One-click unsubscribe: a valid unused token stops its kind of email (or all email) for its person and is spent; a spent one answers already_used; anything else is refused. Needs no session.';
revoke all on function public.unsubscribe_from_email(text) from public;
grant execute on function public.unsubscribe_from_email(text) to anon, authenticated;

create function public.describe_email_unsubscribe(token text)
returns table (outcome text, kind text)
language sql
stable
security definer
set search_path = ''
as $$
  select case when t.used_at is null then 'valid' else 'already_used' end, t.kind
  from private.email_unsubscribe_tokens t
  where private.is_unsubscribe_token(describe_email_unsubscribe.token)
    and t.token_hash = private.unsubscribe_token_hash(describe_email_unsubscribe.token);
$$;

comment on function public.describe_email_unsubscribe(text) is 'For the unsubscribe page (which must not unsubscribe on GET): which kind a token stops and whether it was used; no row for an unknown token. Says nothing of whose it is.';
revoke all on function public.describe_email_unsubscribe(text) from public;
grant execute on function public.describe_email_unsubscribe(text) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- What a digest holds

-- Notifications a digest may carry since a time: unread, not held back, of the person's email
-- kinds, no older than a day. Words (the comment or post's text, the post's title, who did it)
-- only where the person may read the room now and the item is not hidden, held or deleted — as
-- public.my_notifications shows them; otherwise the kind and the room's name alone.
create function private.email_digest_items(person uuid, kinds text[], since timestamptz)
returns table (created_at timestamptz, item jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select n.created_at,
         jsonb_build_object(
           'id', n.id,
           'kind', n.kind,
           'created_at', n.created_at,
           'data', n.data,
           'actor_username', case when readable then a.username end,
           'actor_display_name', case when readable then coalesce(nullif(a.display_name, ''), a.ens_name) end,
           'room_slug', r.slug,
           'room_name', r.name,
           'post_id', case when post_open then p.id end,
           'post_title', case when post_open then p.title end,
           'moment_id', n.moment_id,
           'parent_id', c.parent_id,
           'excerpt', case
             when comment_open then left(c.body, 200)
             when n.kind = 'mention' and n.moment_id is null and post_open then left(p.body, 200)
           end)
  from public.notifications n
  left join public.profiles a on a.id = n.actor_id
  left join public.rooms r on r.id = n.room_id
  left join public.posts p on p.id = n.post_id
  left join public.moments c on c.id = n.moment_id
  cross join lateral (select n.room_id is not null and private.person_can_read_room(person, n.room_id) as readable) v
  cross join lateral (select v.readable and p.id is not null and p.hidden_at is null as post_open) pv
  cross join lateral (
    select v.readable and c.id is not null and c.hidden_at is null and c.held_at is null and c.deleted_at is null
           and (p.id is null or p.hidden_at is null) as comment_open
  ) cv
  where n.user_id = person
    and n.read_at is null
    and not n.held
    and n.kind = any (kinds)
    and n.created_at > greatest(coalesce(since, '-infinity'::timestamptz), now() - interval '1 day');
$$;

comment on function private.email_digest_items(uuid, text[], timestamptz) is 'The notifications a digest may carry since a time, each as the email shows it, with words only where the person may still read them.';
revoke all on function private.email_digest_items(uuid, text[], timestamptz) from public, anon, authenticated;

create function private.email_digest_address(person uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.email from auth.users u
  where u.id = person
    and nullif(u.email, '') is not null
    and u.email_confirmed_at is not null
    and u.deleted_at is null
    and (u.banned_until is null or u.banned_until < now());
$$;

comment on function private.email_digest_address(uuid) is 'The confirmed address a digest goes to; null for an account without one (a wallet-only account), a banned or a deleted one.';
revoke all on function private.email_digest_address(uuid) from public, anon, authenticated;

-- The hourly limit: a person whose last digest is under an hour old is not due.
create function private.email_digest_is_due(last_digest timestamptz)
returns boolean
language sql
stable
set search_path = ''
as $$
  select last_digest is null or last_digest <= now() - interval '1 hour';
$$;

revoke all on function private.email_digest_is_due(timestamptz) from public, anon, authenticated;

create function public.email_digests_due(person uuid default null, max_people integer default 500)
returns table (user_id uuid, email text, total integer, notifications jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select s.user_id, addr.email, items.total, items.list
  from public.notification_settings s
  cross join lateral (select private.email_digest_address(s.user_id) as email) addr
  cross join lateral (
    select count(*)::integer as total,
           coalesce(jsonb_agg(i.item order by i.created_at desc), '[]') as list
    from private.email_digest_items(s.user_id, s.email_kinds, s.last_digest_at) i
  ) items
  where (email_digests_due.person is null or s.user_id = email_digests_due.person)
    and cardinality(s.email_kinds) > 0
    and private.email_digest_is_due(s.last_digest_at)
    and addr.email is not null
    and items.total > 0
  order by s.last_digest_at nulls first, s.user_id
  limit least(greatest(coalesce(email_digests_due.max_people, 500), 1), 5000);
$$;

comment on function public.email_digests_due(uuid, integer) is 'Service role (notification-digest): the people due a digest now (or the one named, if due) with their address and the notifications it would carry, newest first. Reads only; claim_email_digest records the sending.';
revoke all on function public.email_digests_due(uuid, integer) from public, anon, authenticated;
grant execute on function public.email_digests_due(uuid, integer) to service_role;

create function public.claim_email_digest(person uuid, max_items integer default 20)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings public.notification_settings;
  address text;
  total integer;
  list jsonb;
  kinds text[];
  unsubscribe_kinds jsonb := '{}';
  what text;
begin
  select s.* into settings from public.notification_settings s where s.user_id = person for update;
  if settings.user_id is null or cardinality(settings.email_kinds) = 0 or not private.email_digest_is_due(settings.last_digest_at) then
    return null;
  end if;
  address := private.email_digest_address(person);
  if address is null then
    return null;
  end if;
  select count(*)::integer,
         coalesce(jsonb_agg(i.item order by i.created_at desc), '[]'),
         coalesce(array_agg(distinct i.item ->> 'kind'), '{}')
    into total, list, kinds
  from private.email_digest_items(person, settings.email_kinds, settings.last_digest_at) i;
  if total = 0 then
    return null;
  end if;
  update public.notification_settings s set last_digest_at = now() where s.user_id = person;
  foreach what in array kinds loop
    unsubscribe_kinds := unsubscribe_kinds || jsonb_build_object(what, private.issue_unsubscribe_token(person, what));
  end loop;
  return jsonb_build_object(
    'user_id', person,
    'email', address,
    'claimed_at', now(),
    'previous_digest_at', settings.last_digest_at,
    'total', total,
    'notifications', (select coalesce(jsonb_agg(e.value order by e.ordinality), '[]')
                      from jsonb_array_elements(list) with ordinality e
                      where e.ordinality <= least(greatest(coalesce(max_items, 20), 1), 100)),
    'unsubscribe', jsonb_build_object('all', private.issue_unsubscribe_token(person, null), 'kinds', unsubscribe_kinds));
end;
$$;

comment on function public.claim_email_digest(uuid, integer) is 'Service role (notification-digest): takes a person''s digest if they are due (at most hourly) and it has something to say — records last_digest_at, issues its unsubscribe tokens (all email, and each kind in it) — and answers what to send; null when there is nothing to send.';
revoke all on function public.claim_email_digest(uuid, integer) from public, anon, authenticated;
grant execute on function public.claim_email_digest(uuid, integer) to service_role;

create function public.release_email_digest(person uuid, claimed_at timestamptz, previous_digest_at timestamptz)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  released integer;
begin
  update public.notification_settings s set last_digest_at = release_email_digest.previous_digest_at
  where s.user_id = person and s.last_digest_at = release_email_digest.claimed_at;
  get diagnostics released = row_count;
  if released > 0 then
    delete from private.email_unsubscribe_tokens t
    where t.user_id = person and t.created_at = release_email_digest.claimed_at and t.used_at is null;
  end if;
  return released > 0;
end;
$$;

comment on function public.release_email_digest(uuid, timestamptz, timestamptz) is 'Service role (notification-digest): gives back a claimed digest that could not be sent — last_digest_at as it was and the email''s unused tokens gone — so the next run tries again.';
revoke all on function public.release_email_digest(uuid, timestamptz, timestamptz) from public, anon, authenticated;
grant execute on function public.release_email_digest(uuid, timestamptz, timestamptz) to service_role;
