-- Moments: comments on a post, at a second of its media (`at_seconds`) or general (null).
-- Reactions: one per (person, moment, emoji), from a fixed set of five.
--
-- Readable by whoever may read the room's content (everyone for a public room, members for a gated
-- one). Members comment and react as themselves; authors edit and delete their own moments;
-- moderators and the owner delete any moment in their room; people remove their own reactions.
--
-- `room_id` (and, on reactions, `post_id`) are copied from the parent by a trigger, never sent by
-- the client: policies and the room's live channel need them without a join.

create table public.moments (
  id uuid primary key default gen_random_uuid(),
  post_id uuid not null references public.posts (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  author_id uuid not null references public.profiles (id) on delete cascade,
  at_seconds numeric(10, 3),
  body text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint moments_body_length check (char_length(btrim(body)) between 1 and 1000 and char_length(body) <= 1000),
  constraint moments_at_seconds_range check (at_seconds is null or (at_seconds >= 0 and at_seconds <= 172800))
);

comment on table public.moments is 'Comments on a post: at a second of its media, or general (at_seconds null).';
comment on constraint moments_body_length on public.moments is 'Comments are 1–1000 characters';
comment on constraint moments_at_seconds_range on public.moments is 'A moment is a time within the media';

-- The post page lists a post's moments in media order (general comments last), paged by (at, id);
-- a page that rejoins fetches what it missed by (created_at, id).
create index moments_post_timeline_idx on public.moments (post_id, at_seconds, id);
create index moments_post_created_idx on public.moments (post_id, created_at, id);
create index moments_room_id_idx on public.moments (room_id);
create index moments_author_id_idx on public.moments (author_id);

create table public.reactions (
  id uuid primary key default gen_random_uuid(),
  moment_id uuid not null references public.moments (id) on delete cascade,
  post_id uuid not null references public.posts (id) on delete cascade,
  room_id uuid not null references public.rooms (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  emoji text not null,
  created_at timestamptz not null default now(),
  constraint reactions_emoji_in_set check (emoji in ('🔥', '❤️', '😂', '😮', '👏')),
  constraint reactions_one_per_emoji unique (moment_id, user_id, emoji)
);

comment on table public.reactions is 'A person''s emoji on a moment: one of five, once each.';
comment on constraint reactions_emoji_in_set on public.reactions is 'Reactions are one of 🔥 ❤️ 😂 😮 👏';
comment on constraint reactions_one_per_emoji on public.reactions is 'You already reacted with that emoji';

create index reactions_post_id_idx on public.reactions (post_id);
create index reactions_room_id_idx on public.reactions (room_id);
create index reactions_user_id_idx on public.reactions (user_id);

-- ---------------------------------------------------------------------------------------------
-- Copied columns and the duration rule
-- ---------------------------------------------------------------------------------------------
-- Security definer: the parent row is read whatever the caller may see, so a moment on a post the
-- caller cannot read gets its room from the post and is then refused by the insert policy.
create function private.moment_from_post()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent public.posts%rowtype;
begin
  select * into parent from public.posts p where p.id = new.post_id;
  if not found then
    raise exception 'That post no longer exists'
      using errcode = '23503', constraint = 'moments_post_id_fkey';
  end if;
  new.room_id := parent.room_id;
  if new.at_seconds is not null and parent.duration_seconds is not null
     and new.at_seconds > parent.duration_seconds then
    raise exception 'That time is past the end of the media'
      using errcode = '23514', constraint = 'moments_at_seconds_within_duration';
  end if;
  return new;
end;
$$;

create function private.reaction_from_moment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent public.moments%rowtype;
begin
  select * into parent from public.moments m where m.id = new.moment_id;
  if not found then
    raise exception 'That comment no longer exists'
      using errcode = '23503', constraint = 'reactions_moment_id_fkey';
  end if;
  new.post_id := parent.post_id;
  new.room_id := parent.room_id;
  return new;
end;
$$;

revoke all on function private.moment_from_post() from public, anon, authenticated;
revoke all on function private.reaction_from_moment() from public, anon, authenticated;

create trigger moments_from_post
  before insert or update of post_id, at_seconds on public.moments
  for each row execute function private.moment_from_post();

create trigger reactions_from_moment
  before insert or update of moment_id on public.reactions
  for each row execute function private.reaction_from_moment();

create trigger moments_touch_updated_at
  before update on public.moments
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Privileges and policies
-- ---------------------------------------------------------------------------------------------
alter table public.moments enable row level security;
alter table public.reactions enable row level security;

revoke all on public.moments, public.reactions from anon, authenticated;
grant select on public.moments, public.reactions to anon, authenticated;
grant insert (post_id, author_id, at_seconds, body) on public.moments to authenticated;
grant update (body, at_seconds) on public.moments to authenticated;
grant delete on public.moments to authenticated;
grant insert (moment_id, user_id, emoji) on public.reactions to authenticated;
grant delete on public.reactions to authenticated;
grant select, insert, update, delete on public.moments, public.reactions to service_role;

create policy "Moments are readable by whoever may read the room"
  on public.moments for select
  to anon, authenticated
  using ((select private.can_read_room_content(room_id)));

create policy "Members comment as themselves"
  on public.moments for insert
  to authenticated
  with check (author_id = (select auth.uid()) and (select private.room_role(room_id)) is not null);

create policy "Authors edit their own moments"
  on public.moments for update
  to authenticated
  using (author_id = (select auth.uid()) and (select private.room_role(room_id)) is not null)
  with check (author_id = (select auth.uid()));

create policy "Authors, moderators and the owner delete moments"
  on public.moments for delete
  to authenticated
  using (
    author_id = (select auth.uid())
    or (select private.room_role(room_id)) in ('owner', 'moderator')
  );

create policy "Reactions are readable by whoever may read the room"
  on public.reactions for select
  to anon, authenticated
  using ((select private.can_read_room_content(room_id)));

create policy "Members react as themselves"
  on public.reactions for insert
  to authenticated
  with check (user_id = (select auth.uid()) and (select private.room_role(room_id)) is not null);

create policy "People remove their own reactions"
  on public.reactions for delete
  to authenticated
  using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- The room's live channel, `room:{room id}` (policies in 20261123000600): every change to posts,
-- moments and reactions is broadcast from the database in the writing transaction, with
-- realtime.broadcast_changes (event = table name; payload {id, schema, table, operation, record,
-- old_record}). Memberships send only who and what changed (event 'memberships'), so a page can
-- leave the channel at once when its own membership ends. Security definer: clients may not
-- broadcast on room topics, the database does it for them.
-- ---------------------------------------------------------------------------------------------
create function private.broadcast_room_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_room uuid := case when tg_op = 'DELETE' then old.room_id else new.room_id end;
begin
  perform realtime.broadcast_changes(
    'room:' || target_room, tg_table_name, tg_op, tg_table_name, tg_table_schema, new, old
  );
  return null;
end;
$$;

create function private.broadcast_membership_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.memberships%rowtype := case when tg_op = 'DELETE' then old else new end;
begin
  perform realtime.send(
    jsonb_build_object(
      'operation', tg_op,
      'room_id', changed.room_id,
      'user_id', changed.user_id,
      'role', case when tg_op = 'DELETE' then null else changed.role end
    ),
    'memberships',
    'room:' || changed.room_id,
    true
  );
  return null;
end;
$$;

revoke all on function private.broadcast_room_change() from public, anon, authenticated;
revoke all on function private.broadcast_membership_change() from public, anon, authenticated;

create trigger posts_broadcast
  after insert or update or delete on public.posts
  for each row execute function private.broadcast_room_change();

create trigger moments_broadcast
  after insert or update or delete on public.moments
  for each row execute function private.broadcast_room_change();

create trigger reactions_broadcast
  after insert or update or delete on public.reactions
  for each row execute function private.broadcast_room_change();

create trigger memberships_broadcast
  after insert or update of role or delete on public.memberships
  for each row execute function private.broadcast_membership_change();

-- The room channel replaces Postgres Changes for posts: every listener was authorised when it
-- joined, not once per change.
alter publication supabase_realtime drop table public.posts;
