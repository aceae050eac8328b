-- Replies: a comment may answer one other comment (one level, as on SoundCloud). A reply takes its
-- parent's post and time; a parent that still has replies is not removed when deleted but left as
-- "Comment deleted" (its words, reactions and mentions gone) until its last reply goes.

alter table public.moments
  add column parent_id uuid references public.moments (id) on delete cascade,
  add column deleted_at timestamptz;

comment on column public.moments.parent_id is 'The comment this one answers (a reply); null for a comment on the post. One level: a reply''s parent is not itself a reply.';
comment on column public.moments.deleted_at is 'When a comment that still had replies was deleted: its words are gone and it stands as "Comment deleted" above them.';

create index moments_parent_idx on public.moments (parent_id, created_at, id) where parent_id is not null;

-- A deleted comment keeps no words; any other comment has 1–1000 characters with something visible.
alter table public.moments drop constraint moments_body_length;
alter table public.moments
  add constraint moments_body_length check (
    case when deleted_at is not null then body = ''
         else char_length(body) <= 1000 and private.has_visible_text(body) end
  ) not valid;
comment on constraint moments_body_length on public.moments is 'Comments are 1–1000 characters';

-- Runs before moments_from_post (names sort): the parent decides the post, hence the room and time.
-- Invoker's rights on purpose: the parent must be a comment the replier can read.
create function private.moment_as_reply()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  parent record;
begin
  if new.parent_id is null then
    if tg_op = 'UPDATE' and old.parent_id is not null then
      raise exception 'A reply stays a reply' using errcode = '22023', constraint = 'moments_parent_fixed';
    end if;
    return new;
  end if;
  if tg_op = 'UPDATE' and new.parent_id is distinct from old.parent_id then
    raise exception 'A reply stays under the comment it answers' using errcode = '22023', constraint = 'moments_parent_fixed';
  end if;
  select c.id, c.post_id, c.at_seconds, c.parent_id, c.deleted_at into parent
    from public.moments c where c.id = new.parent_id;
  if not found or (tg_op = 'INSERT' and parent.deleted_at is not null) then
    raise exception 'That comment is no longer there' using errcode = '23503', constraint = 'moments_parent_id_fkey';
  end if;
  if parent.parent_id is not null then
    raise exception 'Reply to the comment that started the thread' using errcode = '22023', constraint = 'moments_parent_is_not_a_reply';
  end if;
  new.post_id := parent.post_id;
  new.at_seconds := parent.at_seconds;
  new.session_id := null;
  return new;
end;
$$;

comment on function private.moment_as_reply() is 'A reply answers a comment the replier can read, one level deep, and takes that comment''s post and time.';

create trigger moments_as_reply
  before insert or update of parent_id, post_id, at_seconds on public.moments
  for each row execute function private.moment_as_reply();

-- A comment that has replies is emptied, not removed, so its thread stays readable. Deletes that
-- come from the post or room going (the cascade) remove it as before.
create function private.keep_deleted_comment_with_replies()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.parent_id is not null or old.deleted_at is not null
     or not exists (select 1 from public.posts p where p.id = old.post_id)
     or not exists (select 1 from public.moments r where r.parent_id = old.id) then
    return old;
  end if;
  delete from public.reactions x where x.moment_id = old.id;
  update public.moments c set body = '', deleted_at = now(), hidden_at = null, held_at = null
    where c.id = old.id;
  return null;
end;
$$;

comment on function private.keep_deleted_comment_with_replies() is 'Deleting a comment with replies leaves it as "Comment deleted" (no words, reactions or mentions) above them.';
revoke all on function private.keep_deleted_comment_with_replies() from public, anon, authenticated;

create trigger moments_keep_thread
  before delete on public.moments
  for each row execute function private.keep_deleted_comment_with_replies();

-- The last reply under a deleted comment takes the empty comment with it.
create function private.remove_emptied_thread()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.parent_id is null then
    return null;
  end if;
  delete from public.moments c
    where c.id = old.parent_id
      and c.deleted_at is not null
      and not exists (select 1 from public.moments r where r.parent_id = c.id);
  return null;
end;
$$;

comment on function private.remove_emptied_thread() is 'When the last reply under a deleted comment goes, the comment goes too.';
revoke all on function private.remove_emptied_thread() from public, anon, authenticated;

create trigger moments_remove_emptied_thread
  after delete on public.moments
  for each row execute function private.remove_emptied_thread();

-- An emptied comment is not edited back to life, and nobody reacts to it.
create or replace function private.refuse_edit_of_deleted_comment()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.deleted_at is not null and (new.body is distinct from old.body or new.deleted_at is null) then
    raise exception 'That comment was deleted' using errcode = '22023', constraint = 'moments_deleted_is_final';
  end if;
  return new;
end;
$$;

create trigger moments_deleted_is_final
  before update on public.moments
  for each row when (old.deleted_at is not null) execute function private.refuse_edit_of_deleted_comment();

create function private.refuse_reaction_to_deleted_comment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.moments c where c.id = new.moment_id and c.deleted_at is not null) then
    raise exception 'That comment was deleted' using errcode = '23503', constraint = 'reactions_moment_id_fkey';
  end if;
  return new;
end;
$$;

revoke all on function private.refuse_reaction_to_deleted_comment() from public, anon, authenticated;

create trigger reactions_not_on_deleted
  before insert on public.reactions
  for each row execute function private.refuse_reaction_to_deleted_comment();

grant insert (parent_id) on public.moments to authenticated;
