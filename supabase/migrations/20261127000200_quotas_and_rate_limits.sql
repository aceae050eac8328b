-- Quotas and rate limits, per account, decided by Postgres.
--
-- Before, one account could create 30 rooms and 100 comments (each broadcast to the whole room) in
-- a few seconds, and three concurrent suggestions left one person with 12 pending where the rule
-- says 10: the count was taken without a lock.
--
-- Every limit is a row of private.rate_limits(): the action, how many, over how long, and the
-- refusal in the person's words ("You're commenting quickly — try again in 8 seconds"). A refusal
-- is SQLSTATE PT429, which the API answers as HTTP 429. Each person's actions of one kind are
-- counted one after another (a transaction-scoped advisory lock), so concurrent requests cannot all
-- slip under a limit. What is counted is a ledger of actions taken (private.rate_events), not the
-- rows that remain: deleting a comment does not buy another one. Writes with no signed-in person
-- (the service role: the server's own functions, seeds, fixtures) are not limited.

create function private.rate_limits()
returns table (action text, max_count integer, per interval, refusal text)
language sql
immutable
set search_path = ''
as $$
  values
    ('rooms', 10, interval '1 day', 'You''ve created 10 rooms today — try again in {wait}'),
    ('posts', 20, interval '1 hour', 'You''re posting quickly in this room — try again in {wait}'),
    ('comments', 20, interval '1 minute', 'You''re commenting quickly — try again in {wait}'),
    ('reactions', 60, interval '1 minute', 'You''re reacting quickly — try again in {wait}'),
    ('wallet links', 30, interval '10 minutes', 'Too many attempts to link a wallet — try again in {wait}')
$$;

comment on function private.rate_limits() is 'Every per-account quota: the action, how many, over how long, and the refusal in words ({wait} is filled in). Owners and moderators are not limited in posting to their rooms.';

create table private.rate_events (
  action text not null,
  person uuid not null,
  -- The room a per-room limit counts in (posts); null for limits across the whole account.
  scope uuid,
  at timestamptz not null default clock_timestamp()
);

create index rate_events_person_action_at_idx on private.rate_events (person, action, at);

-- "8 seconds", "3 minutes", "2 hours": how long until the next one is allowed, rounded up.
create function private.wait_words(wait interval)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when s < 60 then n_s || case when n_s = 1 then ' second' else ' seconds' end
    when s < 3600 then ceil(s / 60)::int || case when ceil(s / 60) = 1 then ' minute' else ' minutes' end
    else ceil(s / 3600)::int || case when ceil(s / 3600) = 1 then ' hour' else ' hours' end
  end
  from (select greatest(extract(epoch from wait), 1) as s) w,
       lateral (select ceil(w.s)::int as n_s) n;
$$;

-- Counts one action of `person` (in `scope`) against its limit, or refuses it in words.
create function private.take_rate(action text, person uuid, scope uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  rule record;
  used integer;
  oldest timestamptz;
begin
  select * into rule from private.rate_limits() l where l.action = take_rate.action;
  if not found then
    raise exception 'No rate limit named %', take_rate.action;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('rate:' || take_rate.action || ':' || take_rate.person::text, 0));
  delete from private.rate_events e
    where e.person = take_rate.person and e.action = take_rate.action and e.at <= clock_timestamp() - rule.per;
  select count(*), min(e.at) into used, oldest
    from private.rate_events e
    where e.person = take_rate.person and e.action = take_rate.action and e.scope is not distinct from take_rate.scope;
  if used >= rule.max_count then
    raise exception '%', replace(rule.refusal, '{wait}', private.wait_words(oldest + rule.per - clock_timestamp()))
      using errcode = 'PT429', hint = 'Limit: ' || rule.max_count || ' per ' || rule.per;
  end if;
  insert into private.rate_events (action, person, scope) values (take_rate.action, take_rate.person, take_rate.scope);
end;
$$;

revoke all on function private.rate_limits() from public;
revoke all on function private.wait_words(interval) from public;
revoke all on function private.take_rate(text, uuid, uuid) from public, anon, authenticated;
grant execute on function private.rate_limits() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The limited writes
-- ---------------------------------------------------------------------------------------------
-- A person's insert counts against the limit the trigger names (its first argument).
create function private.limit_by_person()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is not null then
    perform private.take_rate(tg_argv[0], (select auth.uid()));
  end if;
  return new;
end;
$$;

-- Owners and moderators post to their rooms without a limit (they curate them).
create function private.limit_posting()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is not null and (select private.room_role(new.room_id)) is distinct from 'owner'
     and (select private.room_role(new.room_id)) is distinct from 'moderator' then
    perform private.take_rate('posts', (select auth.uid()), new.room_id);
  end if;
  return new;
end;
$$;

-- Nonces are issued by the link-wallet function (the service role) for the person asking.
create function private.limit_wallet_links()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.take_rate('wallet links', new.user_id);
  return new;
end;
$$;

revoke all on function private.limit_by_person() from public, anon, authenticated;
revoke all on function private.limit_posting() from public, anon, authenticated;
revoke all on function private.limit_wallet_links() from public, anon, authenticated;

-- Named to run after the tables' other before-insert triggers (alphabetical): what they refuse is not counted.
create trigger zz_rooms_rate_limit before insert on public.rooms
  for each row execute function private.limit_by_person('rooms');
create trigger zz_posts_rate_limit before insert on public.posts
  for each row execute function private.limit_posting();
create trigger zz_moments_rate_limit before insert on public.moments
  for each row execute function private.limit_by_person('comments');
create trigger zz_reactions_rate_limit before insert on public.reactions
  for each row execute function private.limit_by_person('reactions');
create trigger zz_wallet_nonces_rate_limit before insert on public.wallet_nonces
  for each row execute function private.limit_wallet_links();

-- ---------------------------------------------------------------------------------------------
-- The queue's limits, counted under a lock: one session's entries are added one after another.
-- ---------------------------------------------------------------------------------------------
create or replace function private.queue_entry_from_session()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent public.listening_sessions%rowtype;
  post_room uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('queue:' || new.session_id::text, 0));
  select * into parent from public.listening_sessions s where s.id = new.session_id;
  if not found then
    raise exception 'That session no longer exists' using errcode = '23503', constraint = 'session_queue_session_id_fkey';
  end if;
  if parent.ended_at is not null then
    raise exception 'This session has ended' using errcode = 'PT409';
  end if;
  select p.room_id into post_room from public.posts p where p.id = new.post_id;
  if post_room is distinct from parent.room_id then
    raise exception 'That post isn''t in this room' using errcode = '23503', constraint = 'session_queue_post_id_fkey';
  end if;
  new.room_id := parent.room_id;
  -- A person's entry (the service role, with no user, sets what it likes).
  if (select auth.uid()) is not null then
    new.status := case when parent.host_id = (select auth.uid()) then 'queued' else 'suggested' end;
  end if;
  if (select count(*) from public.session_queue q where q.session_id = new.session_id) >= private.queue_limit() then
    raise exception 'The queue holds up to % posts', private.queue_limit() using errcode = '23514', constraint = 'session_queue_limit';
  end if;
  if new.status = 'suggested'
     and (select count(*) from public.session_queue q
          where q.session_id = new.session_id and q.added_by = new.added_by and q.status = 'suggested') >= private.suggestion_limit() then
    raise exception 'You can suggest up to % posts at a time', private.suggestion_limit() using errcode = '23514', constraint = 'session_queue_suggestion_limit';
  end if;
  new.sort_key := coalesce((select max(q.sort_key) from public.session_queue q where q.session_id = new.session_id), 0) + 1;
  return new;
end;
$$;
