-- Reports: a member flags a post or comment for the room's moderators.
--
-- A report is made only through public.report_content (no insert grant): it locks the item, so
-- reports of one item arriving together are counted one after another, and says why it refuses.
-- A member whose membership counts now reports a post or comment of their room once, never their
-- own. When the distinct members with open reports on an item, each a member for at least a day,
-- reach the room's report_threshold, the item is hidden in the same transaction (logged as
-- post_hidden/comment_hidden by the database itself, with no actor).
--
-- The owner and moderators act on an item in one step: public.remove_content deletes it (its open
-- reports become actioned), public.dismiss_reports shows it again (its open reports become
-- dismissed). A post or comment deleted through REST by the owner or a moderator who is not its
-- author is logged the same way. A report outlives its item (the item's id becomes null) so its
-- reporter still reads how it ended: an item deleted by its own author leaves its reports actioned
-- with no one named as resolving them.
--
-- public.moderation_queue(room) is the owner's and moderators' queue: open reported items and held
-- comments, newest first, with the item and its reports.

create table public.reports (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references public.rooms (id) on delete cascade,
  reporter_id uuid not null references public.profiles (id) on delete cascade,
  post_id uuid references public.posts (id) on delete set null,
  moment_id uuid references public.moments (id) on delete set null,
  category text not null,
  note text not null default '',
  status text not null default 'open',
  resolved_by uuid references public.profiles (id) on delete set null,
  resolved_at timestamptz,
  created_at timestamptz not null default now(),
  constraint reports_category check (category in ('spam', 'harassment', 'hate', 'sexual', 'other')),
  constraint reports_note_length check (char_length(note) <= 500),
  constraint reports_note_characters check (private.is_body_characters(note)),
  constraint reports_status check (status in ('open', 'actioned', 'dismissed')),
  -- One item; none once it is gone (its reports are closed as it goes: see close_reports_of_deleted_item).
  constraint reports_one_item check (num_nonnulls(post_id, moment_id) <= 1),
  constraint reports_resolved_when_closed check ((status = 'open') = (resolved_at is null)),
  constraint reports_once_per_post unique (reporter_id, post_id),
  constraint reports_once_per_comment unique (reporter_id, moment_id)
);

comment on table public.reports is 'A member''s report of a post or comment in their room: read by its reporter and by the room''s owner and moderators; made through report_content.';
comment on constraint reports_category on public.reports is 'Choose what is wrong: spam, harassment, hate, sexual content or something else';
comment on constraint reports_note_length on public.reports is 'Notes are up to 500 characters';
comment on constraint reports_note_characters on public.reports is 'Notes can''t contain control characters';
comment on constraint reports_once_per_post on public.reports is 'You''ve already reported this post';
comment on constraint reports_once_per_comment on public.reports is 'You''ve already reported this comment';

create index reports_room_open_idx on public.reports (room_id, created_at desc) where status = 'open';
create index reports_room_id_idx on public.reports (room_id);
create index reports_post_id_idx on public.reports (post_id) where post_id is not null;
create index reports_moment_id_idx on public.reports (moment_id) where moment_id is not null;
create index reports_resolved_by_idx on public.reports (resolved_by) where resolved_by is not null;

alter table public.reports enable row level security;

create policy "Reporters read their own reports; the owner and moderators read the room's"
  on public.reports for select
  to authenticated
  using (
    reporter_id = (select auth.uid())
    or (select private.moderates_room(reports.room_id))
  );

revoke all on public.reports from anon, authenticated, service_role;
grant select on public.reports to authenticated;
grant select, insert, update, delete on public.reports to service_role;

-- How long someone must have been a member for their report to count towards hiding an item.
create function private.reporter_seniority()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '1 day' $$;

revoke all on function private.reporter_seniority() from public, anon, authenticated;

-- The caller's refusal when they may not moderate the room, or nothing when they may.
create function private.require_moderator(target_room uuid, what text)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to %', what using errcode = '42501';
  end if;
  if not private.moderates_room(target_room) then
    raise exception 'Only the room''s owner and moderators can %', what using errcode = '42501';
  end if;
end;
$$;

revoke all on function private.require_moderator(uuid, text) from public, anon, authenticated;

-- The item a moderation call names: exactly one of a post and a comment, found (and locked).
create function private.moderated_item(target_post uuid, target_moment uuid, out room_id uuid, out author_id uuid, out post_id uuid, out hidden_at timestamptz, out held_at timestamptz)
returns record
language plpgsql
security definer
set search_path = ''
as $$
begin
  if num_nonnulls(target_post, target_moment) <> 1 then
    raise exception 'Name one post or one comment' using errcode = '22023';
  end if;
  if target_post is not null then
    select p.room_id, p.author_id, p.id, p.hidden_at, null::timestamptz
      into room_id, author_id, post_id, hidden_at, held_at
      from public.posts p where p.id = target_post
      for update;
    if not found then
      raise exception 'That post no longer exists' using errcode = '23503', constraint = 'reports_post_id_fkey';
    end if;
  else
    select c.room_id, c.author_id, c.post_id, c.hidden_at, c.held_at
      into room_id, author_id, post_id, hidden_at, held_at
      from public.moments c where c.id = target_moment
      for update;
    if not found then
      raise exception 'That comment no longer exists' using errcode = '23503', constraint = 'reports_moment_id_fkey';
    end if;
  end if;
end;
$$;

revoke all on function private.moderated_item(uuid, uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Reporting
-- ---------------------------------------------------------------------------------------------
create function public.report_content(
  category text,
  post_id uuid default null,
  moment_id uuid default null,
  note text default ''
)
returns public.reports
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  item record;
  what text := case when report_content.post_id is not null then 'post' else 'comment' end;
  made public.reports;
  reporters integer;
  threshold integer;
begin
  if caller is null then
    raise exception 'Sign in to report something' using errcode = '42501';
  end if;
  select * into item from private.moderated_item(report_content.post_id, report_content.moment_id);
  if not private.is_current_member(item.room_id, caller) then
    raise exception 'Join the room to report what''s in it' using errcode = '42501';
  end if;
  if item.author_id = caller then
    raise exception 'You can''t report your own %', what using errcode = '42501';
  end if;
  if exists (select 1 from public.reports r
             where r.reporter_id = caller
               and (r.post_id = report_content.post_id or r.moment_id = report_content.moment_id)) then
    raise exception 'You''ve already reported this %', what
      using errcode = '23505', constraint = case when what = 'post' then 'reports_once_per_post' else 'reports_once_per_comment' end;
  end if;
  -- What is hidden or held from the reporter is, for them, not there.
  if (item.hidden_at is not null or item.held_at is not null) and not private.moderates_room(item.room_id) then
    raise exception 'That % no longer exists', what using errcode = '23503';
  end if;

  insert into public.reports (room_id, reporter_id, post_id, moment_id, category, note)
  values (item.room_id, caller, report_content.post_id, report_content.moment_id, report_content.category,
          coalesce(report_content.note, ''))
  returning * into made;

  if item.hidden_at is null then
    select r.report_threshold into threshold from public.rooms r where r.id = item.room_id;
    select count(distinct rep.reporter_id) into reporters
    from public.reports rep
    join public.memberships m on m.room_id = rep.room_id and m.user_id = rep.reporter_id
    join public.rooms ro on ro.id = m.room_id
    where rep.status = 'open'
      and (rep.post_id = report_content.post_id or rep.moment_id = report_content.moment_id)
      and m.joined_at <= now() - private.reporter_seniority()
      and private.membership_counts(ro.visibility, m.role, m.verified_at);
    if reporters >= threshold then
      if what = 'post' then
        update public.posts p set hidden_at = now() where p.id = report_content.post_id;
      else
        update public.moments c set hidden_at = now() where c.id = report_content.moment_id;
      end if;
      perform private.log_moderation(item.room_id, case when what = 'post' then 'post_hidden' else 'comment_hidden' end,
        item.author_id, item.post_id, report_content.moment_id,
        format('Reported by %s members', reporters), null);
    end if;
  end if;
  perform private.signal_moderators(item.room_id, item.post_id, report_content.moment_id, 'reported');
  return made;
end;
$$;

comment on function public.report_content(text, uuid, uuid, text) is
  'Reports a post or a comment (exactly one) of the caller''s room, once; hides it when the room''s threshold of distinct members of at least a day have open reports on it.';
revoke all on function public.report_content(text, uuid, uuid, text) from public, anon;
grant execute on function public.report_content(text, uuid, uuid, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Deleting a reported item, whoever does it; a moderator's removal is logged
-- ---------------------------------------------------------------------------------------------
create function private.close_reports_of_deleted_item()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
  target_post uuid := case when tg_table_name = 'posts' then old.id else (to_jsonb(old) ->> 'post_id')::uuid end;
  target_moment uuid := case when tg_table_name = 'moments' then old.id end;
  room_stays boolean := exists (select 1 from public.rooms r where r.id = old.room_id);
  by_moderator boolean := actor is not null and actor is distinct from old.author_id and room_stays
    and private.moderates_room(old.room_id);
  -- A comment that goes with its post is not removed on its own: the post's removal is the entry.
  on_its_own boolean := tg_table_name = 'posts' or exists (select 1 from public.posts p where p.id = target_post);
  closed integer;
begin
  -- The room itself is going: its reports go with it.
  if not room_stays then
    return old;
  end if;
  if tg_table_name = 'posts' then
    update public.reports r
      set status = 'actioned', resolved_by = case when by_moderator then actor end, resolved_at = now()
      where r.post_id = old.id and r.status = 'open';
  else
    update public.reports r
      set status = 'actioned', resolved_by = case when by_moderator then actor end, resolved_at = now()
      where r.moment_id = old.id and r.status = 'open';
  end if;
  get diagnostics closed = row_count;
  if by_moderator and on_its_own then
    perform private.log_moderation(old.room_id, case when tg_table_name = 'posts' then 'post_removed' else 'comment_removed' end,
      old.author_id, target_post, target_moment, coalesce(current_setting('cuepoint.moderation_reason', true), ''));
    if closed > 0 then
      perform private.log_moderation(old.room_id, 'report_actioned', old.author_id, target_post, target_moment,
        format('%s open report%s', closed, case when closed = 1 then '' else 's' end));
    end if;
    perform private.signal_moderators(old.room_id, target_post, target_moment, 'removed');
  end if;
  return old;
end;
$$;

comment on function private.close_reports_of_deleted_item() is 'Before a post or comment is deleted: its open reports become actioned, and a removal by the owner or a moderator is logged.';

create trigger posts_close_reports
  before delete on public.posts
  for each row execute function private.close_reports_of_deleted_item();

create trigger moments_close_reports
  before delete on public.moments
  for each row execute function private.close_reports_of_deleted_item();

-- ---------------------------------------------------------------------------------------------
-- The owner's and moderators' actions
-- ---------------------------------------------------------------------------------------------
create function public.remove_content(post_id uuid default null, moment_id uuid default null, reason text default '')
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  item record;
begin
  select * into item from private.moderated_item(remove_content.post_id, remove_content.moment_id);
  perform private.require_moderator(item.room_id, 'remove what others posted');
  if char_length(coalesce(reason, '')) > 500 then
    raise exception 'Reasons are up to 500 characters' using errcode = '22023';
  end if;
  if item.author_id is distinct from (select auth.uid()) and not private.second_factor_satisfied() then
    raise exception 'Enter the code from your authenticator app first, then remove it' using errcode = '42501';
  end if;
  perform set_config('cuepoint.moderation_reason', coalesce(reason, ''), true);
  if remove_content.post_id is not null then
    delete from public.posts p where p.id = remove_content.post_id;
  else
    delete from public.moments c where c.id = remove_content.moment_id;
  end if;
  perform set_config('cuepoint.moderation_reason', '', true);
end;
$$;

comment on function public.remove_content(uuid, uuid, text) is
  'The owner or a moderator deletes a post or comment (exactly one) of their room; its open reports become actioned, and the removal is logged with the reason.';
revoke all on function public.remove_content(uuid, uuid, text) from public, anon;
grant execute on function public.remove_content(uuid, uuid, text) to authenticated, service_role;

create function public.dismiss_reports(post_id uuid default null, moment_id uuid default null, reason text default '')
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  item record;
  what text := case when dismiss_reports.post_id is not null then 'post' else 'comment' end;
  dismissed integer;
begin
  select * into item from private.moderated_item(dismiss_reports.post_id, dismiss_reports.moment_id);
  perform private.require_moderator(item.room_id, 'dismiss reports');
  if char_length(coalesce(reason, '')) > 500 then
    raise exception 'Reasons are up to 500 characters' using errcode = '22023';
  end if;
  update public.reports r
    set status = 'dismissed', resolved_by = (select auth.uid()), resolved_at = now()
    where r.status = 'open'
      and (r.post_id = dismiss_reports.post_id or r.moment_id = dismiss_reports.moment_id);
  get diagnostics dismissed = row_count;
  if dismissed = 0 and item.hidden_at is null then
    raise exception 'This % has no open reports', what using errcode = 'PT409';
  end if;
  if item.hidden_at is not null then
    if what = 'post' then
      update public.posts p set hidden_at = null where p.id = dismiss_reports.post_id;
    else
      update public.moments c set hidden_at = null where c.id = dismiss_reports.moment_id;
    end if;
  end if;
  perform private.log_moderation(item.room_id, 'report_dismissed', item.author_id, item.post_id, dismiss_reports.moment_id,
    coalesce(nullif(reason, ''), format('%s report%s dismissed', dismissed, case when dismissed = 1 then '' else 's' end)));
  perform private.signal_moderators(item.room_id, item.post_id, dismiss_reports.moment_id, 'dismissed');
  return dismissed;
end;
$$;

comment on function public.dismiss_reports(uuid, uuid, text) is
  'The owner or a moderator dismisses the open reports of a post or comment (exactly one) and shows it again if they had hidden it; answers how many were dismissed.';
revoke all on function public.dismiss_reports(uuid, uuid, text) from public, anon;
grant execute on function public.dismiss_reports(uuid, uuid, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The queue
-- ---------------------------------------------------------------------------------------------
create function public.moderation_queue(
  room_id uuid,
  before_at timestamptz default null,
  before_id uuid default null,
  page_size integer default 20
)
returns table (
  item_id uuid,
  kind text,
  post_id uuid,
  moment_id uuid,
  post_title text,
  body text,
  at_seconds double precision,
  author_id uuid,
  author_username text,
  author_display_name text,
  created_at timestamptz,
  hidden_at timestamptz,
  held_at timestamptz,
  report_count integer,
  categories text[],
  reports jsonb,
  queued_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_moderator(moderation_queue.room_id, 'see the moderation queue');
  if page_size is null or page_size < 1 or page_size > 100 then
    raise exception 'Ask for 1 to 100 items at a time' using errcode = '22023';
  end if;
  return query
  with queued as (
    select r.post_id, r.moment_id, r.created_at as at
    from public.reports r
    where r.room_id = moderation_queue.room_id and r.status = 'open'
    union all
    select null::uuid, c.id, c.held_at
    from public.moments c
    where c.room_id = moderation_queue.room_id and c.held_at is not null
  ),
  items as (
    select coalesce(q.moment_id, q.post_id) as id, q.post_id, q.moment_id, max(q.at) as queued_at
    from queued q
    group by q.post_id, q.moment_id
  )
  select i.id,
    case when i.moment_id is null then 'post' else 'comment' end,
    p.id, c.id, p.title,
    case when c.id is null then p.body else c.body end,
    c.at_seconds,
    au.id, au.username, au.display_name,
    coalesce(c.created_at, p.created_at),
    coalesce(c.hidden_at, p.hidden_at),
    c.held_at,
    coalesce(rep.n, 0),
    coalesce(rep.categories, '{}'::text[]),
    coalesce(rep.list, '[]'::jsonb),
    i.queued_at
  from items i
  left join public.moments c on c.id = i.moment_id
  join public.posts p on p.id = coalesce(i.post_id, c.post_id)
  join public.profiles au on au.id = coalesce(c.author_id, p.author_id)
  left join lateral (
    select count(*)::integer as n,
      array_agg(distinct r.category order by r.category) as categories,
      jsonb_agg(jsonb_build_object(
        'id', r.id, 'category', r.category, 'note', r.note, 'created_at', r.created_at,
        'reporter_id', r.reporter_id, 'reporter_username', rp.username, 'reporter_display_name', rp.display_name
      ) order by r.created_at desc) as list
    from public.reports r
    left join public.profiles rp on rp.id = r.reporter_id
    where r.status = 'open'
      and ((i.moment_id is null and r.post_id = i.post_id) or r.moment_id = i.moment_id)
  ) rep on true
  where moderation_queue.before_at is null
     or (i.queued_at, i.id) < (moderation_queue.before_at, coalesce(moderation_queue.before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))
  order by i.queued_at desc, i.id desc
  limit page_size;
end;
$$;

comment on function public.moderation_queue(uuid, timestamptz, uuid, integer) is
  'The owner''s and moderators'' queue: open reported posts and comments and held comments, newest first (by their last report or when held), with the item in context and its open reports; paged by (queued_at, item_id).';
revoke all on function public.moderation_queue(uuid, timestamptz, uuid, integer) from public, anon;
grant execute on function public.moderation_queue(uuid, timestamptz, uuid, integer) to authenticated, service_role;
