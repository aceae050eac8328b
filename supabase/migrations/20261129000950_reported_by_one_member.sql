-- The log's words when reports hide an item: "Reported by 1 member", not "1 members".

create or replace function public.report_content(
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
        format('Reported by %s %s', reporters, case when reporters = 1 then 'member' else 'members' end), null);
    end if;
  end if;
  perform private.signal_moderators(item.room_id, item.post_id, report_content.moment_id, 'reported');
  return made;
end;
$$;
