-- Conversations: @mentions in comments and posts, and notifications written by the database in the
-- same transaction as their cause — one row per recipient — sent live on the recipient's private
-- channel `user:{user id}`, which only they may join. A notification carries ids, never words: what
-- it is about is read through the tables' own policies, so a recipient who can no longer read the
-- room (lapsed, removed, banned) sees that something happened and not what was said.

-- ---------------------------------------------------------------------------------------------
-- Who can read a room, asked about someone other than the caller.

create function private.person_can_read_room(person uuid, target_room uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.rooms r where r.id = target_room and r.visibility = 'public')
      or private.is_current_member(target_room, person);
$$;

comment on function private.person_can_read_room(uuid, uuid) is 'Whether a person (not necessarily the caller) may read a room''s posts and comments now.';
revoke all on function private.person_can_read_room(uuid, uuid) from public, anon, authenticated;

create function private.shares_a_room(person uuid, other uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.memberships a
    join public.memberships b on b.room_id = a.room_id and b.user_id = other
    where a.user_id = person
  );
$$;

comment on function private.shares_a_room(uuid, uuid) is 'Whether two people are both members of some room.';
revoke all on function private.shares_a_room(uuid, uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Mentions

create table public.mentions (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references public.rooms (id) on delete cascade,
  post_id uuid references public.posts (id) on delete cascade,
  moment_id uuid references public.moments (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  handle text not null,
  created_at timestamptz not null default now(),
  constraint mentions_one_item check (num_nonnulls(post_id, moment_id) = 1),
  constraint mentions_handle_format check (handle ~ '^[a-z0-9_]{3,24}$')
);

comment on table public.mentions is 'Who an @name in a comment (moment_id) or a post''s text (post_id) names, by user id, so a rename keeps the link. Only people who can read the room are mentioned; written by the database from the text.';
comment on column public.mentions.handle is 'The name as written in the text (lowercase), which the page turns into a link to the person.';

create unique index mentions_moment_user_key on public.mentions (moment_id, user_id) where moment_id is not null;
create unique index mentions_post_user_key on public.mentions (post_id, user_id) where post_id is not null;
create index mentions_user_idx on public.mentions (user_id);
create index mentions_room_idx on public.mentions (room_id);

alter table public.mentions enable row level security;

create policy "Mentions are readable with the comment or post they are in"
  on public.mentions for select to anon, authenticated
  using (
    (moment_id is not null and exists (select 1 from public.moments c where c.id = mentions.moment_id))
    or (post_id is not null and exists (select 1 from public.posts p where p.id = mentions.post_id))
  );

grant select on public.mentions to anon, authenticated;
revoke insert, update, delete, truncate on public.mentions from anon, authenticated;

create function private.mentioned_handles(body text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select coalesce(array_agg(distinct lower(m[1])), '{}')
  from regexp_matches(coalesce(body, ''), '(?:^|[^A-Za-z0-9_@./])@([A-Za-z0-9_]{3,24})(?![A-Za-z0-9_])', 'g') as m;
$$;

comment on function private.mentioned_handles(text) is 'The @names in a text: 3–24 of a-z 0-9 _, not inside a word, an email address or a URL.';

-- ---------------------------------------------------------------------------------------------
-- Notifications and each person's settings

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null,
  actor_id uuid references public.profiles (id) on delete set null,
  room_id uuid references public.rooms (id) on delete cascade,
  post_id uuid references public.posts (id) on delete cascade,
  moment_id uuid references public.moments (id) on delete cascade,
  data jsonb not null default '{}',
  held boolean not null default false,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  constraint notifications_kind check (kind in ('reply', 'mention', 'reaction', 'session_started', 'role_changed', 'membership_ended', 'moderation')),
  constraint notifications_data_object check (jsonb_typeof(data) = 'object')
);

comment on table public.notifications is 'What happened that concerns a person, one row per recipient, written by the database with its cause. Carries ids, not words: what it is about is read through the tables'' own policies.';
comment on column public.notifications.held is 'From someone who shares no room with the recipient, and they hold such notifications back: listed apart and not counted as unread.';
comment on column public.notifications.data is 'Details of the kind: reaction {count, emoji, since}; role_changed {from, to}; membership_ended {why}; moderation {action, reason}; session_started {session_id}.';

create index notifications_user_created_idx on public.notifications (user_id, created_at desc, id desc);
create index notifications_unread_idx on public.notifications (user_id) where read_at is null and not held;
create unique index notifications_reaction_group_key on public.notifications (user_id, moment_id) where kind = 'reaction' and read_at is null;
create index notifications_actor_idx on public.notifications (actor_id);
create index notifications_room_idx on public.notifications (room_id);
create index notifications_post_idx on public.notifications (post_id);
create index notifications_moment_idx on public.notifications (moment_id);

alter table public.notifications enable row level security;

create policy "People read their own notifications"
  on public.notifications for select to authenticated
  using (user_id = (select auth.uid()));

create policy "People mark their own notifications read"
  on public.notifications for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "People clear their own notifications"
  on public.notifications for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on public.notifications from anon, authenticated;
grant select, delete on public.notifications to authenticated;
grant update (read_at) on public.notifications to authenticated;

create table public.notification_settings (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  muted_kinds text[] not null default '{}',
  email_kinds text[] not null default '{}',
  hold_strangers boolean not null default true,
  last_digest_at timestamptz,
  updated_at timestamptz not null default now(),
  constraint notification_settings_muted_kinds check (muted_kinds <@ array['reply', 'mention', 'reaction', 'session_started', 'role_changed', 'membership_ended', 'moderation']),
  constraint notification_settings_email_kinds check (email_kinds <@ array['reply', 'mention', 'reaction', 'session_started', 'role_changed', 'membership_ended', 'moderation'])
);

comment on table public.notification_settings is 'A person''s notification choices; no row means the defaults (every kind on, no email, strangers held back).';
comment on column public.notification_settings.muted_kinds is 'Kinds the person does not want at all.';
comment on column public.notification_settings.email_kinds is 'Kinds sent as an email digest (at most hourly) while they stay unread; none by default.';
comment on column public.notification_settings.hold_strangers is 'Hold back notifications from people who share no room with this person.';
comment on column public.notification_settings.last_digest_at is 'When the last digest email was sent (written by the digest sender).';

alter table public.notification_settings enable row level security;

create policy "People read their own notification settings"
  on public.notification_settings for select to authenticated
  using (user_id = (select auth.uid()));
create policy "People make their own notification settings"
  on public.notification_settings for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "People change their own notification settings"
  on public.notification_settings for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

revoke all on public.notification_settings from anon, authenticated;
grant select on public.notification_settings to authenticated;
grant insert (user_id, muted_kinds, email_kinds, hold_strangers) on public.notification_settings to authenticated;
grant update (muted_kinds, email_kinds, hold_strangers) on public.notification_settings to authenticated;

create function private.touch_notification_settings()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  new.muted_kinds := array(select distinct k from unnest(new.muted_kinds) k order by k);
  new.email_kinds := array(select distinct k from unnest(new.email_kinds) k order by k);
  return new;
end;
$$;

create trigger notification_settings_touch
  before insert or update on public.notification_settings
  for each row execute function private.touch_notification_settings();

create table public.notification_mutes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  room_id uuid references public.rooms (id) on delete cascade,
  post_id uuid references public.posts (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint notification_mutes_one_target check (num_nonnulls(room_id, post_id) = 1)
);

comment on table public.notification_mutes is 'A room or a post''s thread a person muted: nothing from it notifies them (replies, mentions, reactions, sessions).';

create unique index notification_mutes_room_key on public.notification_mutes (user_id, room_id) where room_id is not null;
create unique index notification_mutes_post_key on public.notification_mutes (user_id, post_id) where post_id is not null;
create index notification_mutes_room_idx on public.notification_mutes (room_id);
create index notification_mutes_post_idx on public.notification_mutes (post_id);

alter table public.notification_mutes enable row level security;

create policy "People read their own mutes"
  on public.notification_mutes for select to authenticated
  using (user_id = (select auth.uid()));
create policy "People mute for themselves"
  on public.notification_mutes for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "People unmute for themselves"
  on public.notification_mutes for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on public.notification_mutes from anon, authenticated;
grant select, delete on public.notification_mutes to authenticated;
grant insert (user_id, room_id, post_id) on public.notification_mutes to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Writing notifications

create function private.wants_notification(recipient uuid, what text, target_room uuid, target_post uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select not exists (select 1 from public.notification_settings s where s.user_id = recipient and what = any (s.muted_kinds))
     and not (what in ('reply', 'mention', 'reaction', 'session_started') and exists (
       select 1 from public.notification_mutes m
       where m.user_id = recipient and (m.room_id = target_room or m.post_id = target_post)));
$$;

comment on function private.wants_notification(uuid, text, uuid, uuid) is 'Whether the person takes this kind of notification from this room and post (kinds switched off, rooms and threads muted).';
revoke all on function private.wants_notification(uuid, text, uuid, uuid) from public, anon, authenticated;

create function private.holds_back(recipient uuid, actor uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select actor is not null
     and coalesce((select s.hold_strangers from public.notification_settings s where s.user_id = recipient), true)
     and not private.shares_a_room(recipient, actor);
$$;

comment on function private.holds_back(uuid, uuid) is 'Whether a notification from actor to recipient is held back: they share no room and the recipient holds strangers back.';
revoke all on function private.holds_back(uuid, uuid) from public, anon, authenticated;

create function private.notify(
  recipient uuid, what text, actor uuid, target_room uuid,
  target_post uuid default null, target_moment uuid default null, details jsonb default '{}'
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if recipient is null or recipient is not distinct from actor
     or not exists (select 1 from public.profiles p where p.id = recipient)
     or not private.wants_notification(recipient, what, target_room, target_post) then
    return;
  end if;
  insert into public.notifications (user_id, kind, actor_id, room_id, post_id, moment_id, data, held)
  values (recipient, what, actor, target_room, target_post, target_moment, details, private.holds_back(recipient, actor));
end;
$$;

comment on function private.notify(uuid, text, uuid, uuid, uuid, uuid, jsonb) is 'Writes one notification unless it would go to its own actor or the recipient does not want it.';
revoke all on function private.notify(uuid, text, uuid, uuid, uuid, uuid, jsonb) from public, anon, authenticated;

-- Live: a new notification, or some read, tells the recipient's channel (ids only).
create function private.broadcast_new_notification()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not new.held then
    perform realtime.send(jsonb_build_object('id', new.id, 'kind', new.kind), 'notification', 'user:' || new.user_id::text, true);
  end if;
  return null;
end;
$$;

revoke all on function private.broadcast_new_notification() from public, anon, authenticated;

create trigger notifications_broadcast_insert
  after insert on public.notifications
  for each row execute function private.broadcast_new_notification();

create function private.broadcast_notifications_read()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid;
begin
  for person in
    select distinct n.user_id from changed n join previous o on o.id = n.id
    where o.read_at is distinct from n.read_at
  loop
    perform realtime.send(jsonb_build_object('read', true), 'notifications_read', 'user:' || person::text, true);
  end loop;
  return null;
end;
$$;

revoke all on function private.broadcast_notifications_read() from public, anon, authenticated;

create trigger notifications_broadcast_read
  after update on public.notifications
  referencing old table as previous new table as changed
  for each statement execute function private.broadcast_notifications_read();

-- Only that person joins `user:{their id}`; nobody sends on it but the database.
create policy "People receive their own notification channel"
  on realtime.messages for select to authenticated
  using ((select realtime.topic()) = 'user:' || (select auth.uid())::text);

-- ---------------------------------------------------------------------------------------------
-- Causes

-- Mentions follow the text; the newly mentioned (and, for a new reply, the parent's author) are
-- told once the comment is visible to the room (never while it is held or hidden).
create function private.sync_mentions(item_table text, item_id uuid, target_room uuid, body text)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  added uuid[];
begin
  with named as (
    select p.id as user_id, p.username as handle
    from public.profiles p
    where p.username = any (private.mentioned_handles(body))
      and private.person_can_read_room(p.id, target_room)
  ),
  gone as (
    delete from public.mentions m
    where (case when item_table = 'moments' then m.moment_id else m.post_id end) = item_id
      and m.user_id not in (select n.user_id from named n)
  ),
  inserted as (
    insert into public.mentions (room_id, post_id, moment_id, user_id, handle)
    select target_room,
           case when item_table = 'posts' then item_id end,
           case when item_table = 'moments' then item_id end,
           n.user_id, n.handle
    from named n
    on conflict do nothing
    returning user_id
  )
  select coalesce(array_agg(i.user_id), '{}') into added from inserted i;
  return added;
end;
$$;

comment on function private.sync_mentions(text, uuid, uuid, text) is 'Makes the mentions of a comment or post match its text; answers who was newly mentioned.';
revoke all on function private.sync_mentions(text, uuid, uuid, text) from public, anon, authenticated;

create function private.converse_about_comment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  added uuid[] := '{}';
  everyone_named uuid[];
  visible_now boolean := new.hidden_at is null and new.held_at is null and new.deleted_at is null;
  -- Shown for the first time: new and not held, or approved. (Shown again after reports were
  -- dismissed is not new: its people were told when it was made.)
  first_shown boolean := tg_op = 'INSERT' or (old.held_at is not null and new.held_at is null);
  parent_author uuid;
  person uuid;
begin
  if tg_op = 'INSERT' or new.body is distinct from old.body then
    added := private.sync_mentions('moments', new.id, new.room_id, new.body);
  end if;
  if not visible_now then
    return null;
  end if;
  if not first_shown then
    -- An edit: only those it newly names.
    foreach person in array added loop
      perform private.notify(person, 'mention', new.author_id, new.room_id, new.post_id, new.id);
    end loop;
    return null;
  end if;
  -- New, or shown for the first time (approved): the parent's author, and everyone it names.
  if new.parent_id is not null then
    select c.author_id into parent_author from public.moments c where c.id = new.parent_id and c.deleted_at is null;
    -- Told even when they can no longer read the room: they learn that someone answered, not what.
    if parent_author is not null then
      perform private.notify(parent_author, 'reply', new.author_id, new.room_id, new.post_id, new.id);
    end if;
  end if;
  select coalesce(array_agg(m.user_id), '{}') into everyone_named from public.mentions m where m.moment_id = new.id;
  foreach person in array everyone_named loop
    if person is distinct from parent_author then
      perform private.notify(person, 'mention', new.author_id, new.room_id, new.post_id, new.id);
    end if;
  end loop;
  return null;
end;
$$;

comment on function private.converse_about_comment() is 'Keeps a comment''s mentions and tells the people it answers and names, once the room can see it.';
revoke all on function private.converse_about_comment() from public, anon, authenticated;

create trigger moments_converse
  after insert or update of body, hidden_at, held_at, deleted_at on public.moments
  for each row execute function private.converse_about_comment();

create function private.converse_about_post()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  added uuid[] := '{}';
  visible_now boolean := not private.is_withheld(to_jsonb(new));
  first_shown boolean := tg_op = 'INSERT' or (to_jsonb(old) ->> 'held_at' is not null and to_jsonb(new) ->> 'held_at' is null);
  person uuid;
begin
  if tg_op = 'INSERT' or new.body is distinct from old.body then
    added := private.sync_mentions('posts', new.id, new.room_id, new.body);
  end if;
  if not visible_now then
    return null;
  end if;
  if first_shown then
    select coalesce(array_agg(m.user_id), '{}') into added from public.mentions m where m.post_id = new.id;
  end if;
  foreach person in array added loop
    perform private.notify(person, 'mention', new.author_id, new.room_id, new.id, null);
  end loop;
  return null;
end;
$$;

revoke all on function private.converse_about_post() from public, anon, authenticated;

create trigger posts_converse
  after insert or update on public.posts
  for each row execute function private.converse_about_post();

-- Reactions to a comment are one notification per comment while it is unread: the latest reactor,
-- the emoji, and how many reactions since it was first written.
create function private.notify_reaction()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  comment_author uuid;
begin
  select c.author_id into comment_author from public.moments c where c.id = new.moment_id;
  if comment_author is null or comment_author = new.user_id
     or not exists (select 1 from public.profiles p where p.id = comment_author)
     or not private.wants_notification(comment_author, 'reaction', new.room_id, new.post_id) then
    return null;
  end if;
  insert into public.notifications as n (user_id, kind, actor_id, room_id, post_id, moment_id, data, held)
  values (comment_author, 'reaction', new.user_id, new.room_id, new.post_id, new.moment_id,
          jsonb_build_object('count', 1, 'emoji', new.emoji, 'since', now()),
          private.holds_back(comment_author, new.user_id))
  on conflict (user_id, moment_id) where kind = 'reaction' and read_at is null
  do update set actor_id = excluded.actor_id,
                data = n.data || jsonb_build_object('count', coalesce((n.data ->> 'count')::integer, 0) + 1, 'emoji', excluded.data ->> 'emoji'),
                held = n.held and excluded.held,
                created_at = now();
  return null;
end;
$$;

comment on function private.notify_reaction() is 'Adds a reaction to the comment author''s one unread reaction notification for that comment (or starts it).';
revoke all on function private.notify_reaction() from public, anon, authenticated;

create trigger reactions_notify
  after insert on public.reactions
  for each row execute function private.notify_reaction();

-- A session starting tells the room's members (one statement; settings and mutes applied in it).
create function private.notify_session_started()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, actor_id, room_id, data)
  select m.user_id, 'session_started', new.host_id, new.room_id, jsonb_build_object('session_id', new.id)
  from public.memberships m
  join public.rooms r on r.id = m.room_id
  where m.room_id = new.room_id
    and m.user_id is distinct from new.host_id
    and private.membership_counts(r.visibility, m.role, m.verified_at)
    and private.wants_notification(m.user_id, 'session_started', new.room_id, null);
  return null;
end;
$$;

revoke all on function private.notify_session_started() from public, anon, authenticated;

create trigger listening_sessions_notify_started
  after insert on public.listening_sessions
  for each row execute function private.notify_session_started();

create function private.notify_role_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.notify(new.user_id, 'role_changed', (select auth.uid()), new.room_id, null, null,
    jsonb_build_object('from', old.role, 'to', new.role));
  return null;
end;
$$;

revoke all on function private.notify_role_changed() from public, anon, authenticated;

create trigger memberships_notify_role_changed
  after update of role on public.memberships
  for each row when (old.role is distinct from new.role) execute function private.notify_role_changed();

-- A membership ended by someone else: a ban, a moderator's removal, or the server finding that no
-- linked wallet holds the gate's token any more. Leaving, unlinking one's own wallet, and a room or
-- account being deleted tell nobody.
create function private.notify_membership_ended()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
  why text;
begin
  if actor = old.user_id
     or not exists (select 1 from public.rooms r where r.id = old.room_id)
     or not exists (select 1 from public.profiles p where p.id = old.user_id) then
    return null;
  end if;
  why := case
    when coalesce(current_setting('cuepoint.moderation_action', true), '') = 'ban' then 'banned'
    when actor is null then 'lapsed'
    else 'removed'
  end;
  perform private.notify(old.user_id, 'membership_ended', actor, old.room_id, null, null, jsonb_build_object('why', why));
  return null;
end;
$$;

revoke all on function private.notify_membership_ended() from public, anon, authenticated;

create trigger memberships_notify_ended
  after delete on public.memberships
  for each row execute function private.notify_membership_ended();

-- A moderator's action on someone's content (or on them, short of ending the membership) tells them,
-- with the reason the moderator gave. Removed content is named by its room only: it is gone.
create function private.notify_moderation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.target_user_id is null
     or new.action not in ('post_removed', 'comment_removed', 'post_hidden', 'comment_hidden', 'approved', 'timeout', 'timeout_lifted', 'unban') then
    return null;
  end if;
  perform private.notify(new.target_user_id, 'moderation', new.actor_id, new.room_id,
    case when new.action in ('post_hidden', 'comment_hidden', 'approved') and exists (select 1 from public.posts p where p.id = new.post_id) then new.post_id end,
    case when new.action in ('comment_hidden', 'approved') and exists (select 1 from public.moments c where c.id = new.moment_id) then new.moment_id end,
    jsonb_build_object('action', new.action, 'reason', new.reason));
  return null;
end;
$$;

revoke all on function private.notify_moderation() from public, anon, authenticated;

create trigger moderation_log_notify
  after insert on public.moderation_log
  for each row execute function private.notify_moderation();

-- ---------------------------------------------------------------------------------------------
-- Reading

create function public.my_notifications(
  before_created timestamptz default null,
  before_id uuid default null,
  page_size integer default 20,
  held_back boolean default false
)
returns table (
  id uuid,
  kind text,
  created_at timestamptz,
  read_at timestamptz,
  held boolean,
  data jsonb,
  actor_id uuid,
  actor_username text,
  actor_display_name text,
  actor_ens_name text,
  actor_avatar_path text,
  room_id uuid,
  room_slug text,
  room_name text,
  post_id uuid,
  post_title text,
  moment_id uuid,
  parent_id uuid,
  at_seconds double precision,
  excerpt text,
  people integer
)
language sql
stable
set search_path = ''
as $$
  select n.id, n.kind, n.created_at, n.read_at, n.held, n.data,
         n.actor_id, a.username, a.display_name, a.ens_name, a.avatar_path,
         n.room_id, r.slug, r.name,
         n.post_id, p.title,
         n.moment_id, c.parent_id, c.at_seconds,
         case when c.id is not null then left(c.body, 200)
              when n.kind = 'mention' and p.id is not null then left(p.body, 200) end,
         case when n.kind = 'reaction' and c.id is not null then (
           select count(distinct x.user_id)::integer from public.reactions x
           where x.moment_id = c.id and x.user_id <> n.user_id
             and x.created_at >= coalesce((n.data ->> 'since')::timestamptz, n.created_at))
         end
  from public.notifications n
  left join public.profiles a on a.id = n.actor_id
  left join public.rooms r on r.id = n.room_id
  left join public.posts p on p.id = n.post_id
  left join public.moments c on c.id = n.moment_id
  where n.user_id = (select auth.uid())
    and n.held = coalesce(my_notifications.held_back, false)
    and (my_notifications.before_created is null
         or (n.created_at, n.id) < (my_notifications.before_created, coalesce(my_notifications.before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
  order by n.created_at desc, n.id desc
  limit least(greatest(coalesce(my_notifications.page_size, 20), 1), 100);
$$;

comment on function public.my_notifications(timestamptz, uuid, integer, boolean) is 'The caller''s notifications, newest first, paged by (created_at, id): each with who, which room, and — only where the caller may still read it — the post''s title and the comment''s words.';
revoke all on function public.my_notifications(timestamptz, uuid, integer, boolean) from public, anon;
grant execute on function public.my_notifications(timestamptz, uuid, integer, boolean) to authenticated;

create function public.unread_notification_count()
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer from public.notifications n
  where n.user_id = (select auth.uid()) and n.read_at is null and not n.held;
$$;

comment on function public.unread_notification_count() is 'How many of the caller''s notifications are unread (held-back ones not counted).';
revoke all on function public.unread_notification_count() from public, anon;
grant execute on function public.unread_notification_count() to authenticated;

create function public.mark_notifications_read(ids uuid[] default null)
returns integer
language sql
volatile
set search_path = ''
as $$
  with marked as (
    update public.notifications n set read_at = now()
    where n.user_id = (select auth.uid())
      and n.read_at is null
      and (mark_notifications_read.ids is null or n.id = any (mark_notifications_read.ids))
    returning 1
  )
  select count(*)::integer from marked;
$$;

comment on function public.mark_notifications_read(uuid[]) is 'Marks the caller''s given notifications read (all of them when no ids are given); answers how many changed.';
revoke all on function public.mark_notifications_read(uuid[]) from public, anon;
grant execute on function public.mark_notifications_read(uuid[]) to authenticated;
