-- The moderation log: every moderation action in a room, with who did it, to whom, to what and why.
--
-- Rows are written only by the database (private.log_moderation, called from the functions and
-- triggers that carry out each action), read by the room's owner and moderators, and never changed:
-- a trigger refuses every update, delete and truncate, whoever asks (service role included). A room's
-- rows go only when the room itself is deleted, and a deleted account's id becomes null in the rows
-- that name it: the foreign keys' own actions, the only changes the trigger lets through.

create table public.moderation_log (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references public.rooms (id) on delete cascade,
  actor_id uuid references public.profiles (id) on delete set null,
  action text not null,
  target_user_id uuid references public.profiles (id) on delete set null,
  post_id uuid,
  moment_id uuid,
  reason text not null default '',
  created_at timestamptz not null default now(),
  constraint moderation_log_action check (
    action in (
      'ban', 'unban', 'timeout', 'timeout_lifted', 'member_removed', 'post_removed', 'comment_removed',
      'role_changed', 'gate_changed', 'slow_mode_changed', 'report_threshold_changed', 'blocked_terms_changed',
      'report_actioned', 'report_dismissed', 'approved', 'post_hidden', 'comment_hidden'
    )
  ),
  constraint moderation_log_reason_length check (char_length(reason) <= 500)
);

comment on table public.moderation_log is 'Every moderation action in a room: written by the database, read by the owner and moderators, never updated or deleted.';
comment on column public.moderation_log.post_id is 'The post acted on; kept as a plain id so the record outlives the post.';
comment on column public.moderation_log.moment_id is 'The comment acted on; kept as a plain id so the record outlives the comment.';

create index moderation_log_room_created_idx on public.moderation_log (room_id, created_at desc, id desc);
create index moderation_log_actor_id_idx on public.moderation_log (actor_id);
create index moderation_log_target_user_id_idx on public.moderation_log (target_user_id);

alter table public.moderation_log enable row level security;

create policy "The owner and moderators read their room's moderation log" on public.moderation_log
  for select to authenticated
  using ((select private.room_role(moderation_log.room_id)) in ('owner', 'moderator'));

revoke all on public.moderation_log from anon, authenticated, service_role;
grant select on public.moderation_log to authenticated, service_role;

create function private.refuse_moderation_log_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_level = 'ROW' then
    -- The room's own deletion cascades here: its log goes with it.
    if tg_op = 'DELETE' then
      if not exists (select 1 from public.rooms r where r.id = old.room_id) then
        return old;
      end if;
    -- A deleted account leaves its entries, without its id (the foreign keys' "set null").
    elsif (new.id, new.room_id, new.action, new.post_id, new.moment_id, new.reason, new.created_at)
          is not distinct from (old.id, old.room_id, old.action, old.post_id, old.moment_id, old.reason, old.created_at)
      and (new.actor_id is not distinct from old.actor_id
           or (new.actor_id is null and not exists (select 1 from public.profiles p where p.id = old.actor_id)))
      and (new.target_user_id is not distinct from old.target_user_id
           or (new.target_user_id is null and not exists (select 1 from public.profiles p where p.id = old.target_user_id))) then
      return new;
    end if;
  end if;
  raise exception 'The moderation log cannot be changed' using errcode = '42501';
end;
$$;

create trigger moderation_log_is_append_only
  before update or delete on public.moderation_log
  for each row execute function private.refuse_moderation_log_change();

create trigger moderation_log_is_never_truncated
  before truncate on public.moderation_log
  for each statement execute function private.refuse_moderation_log_change();

-- One entry; the actor is the caller unless the database acts on its own (a report threshold).
create function private.log_moderation(
  target_room uuid,
  what text,
  target_user uuid default null,
  target_post uuid default null,
  target_moment uuid default null,
  why text default '',
  actor uuid default auth.uid()
)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.moderation_log (room_id, actor_id, action, target_user_id, post_id, moment_id, reason)
  values (target_room, actor, what, target_user, target_post, target_moment, coalesce(left(why, 500), ''));
$$;

comment on function private.log_moderation(uuid, text, uuid, uuid, uuid, text, uuid) is 'Writes one moderation log entry; called only by the functions and triggers that carry out an action.';
revoke all on function private.log_moderation(uuid, text, uuid, uuid, uuid, text, uuid) from public, anon, authenticated;
