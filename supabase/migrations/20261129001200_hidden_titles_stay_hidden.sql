-- A hidden post's title stays hidden where a live session names what it plays: live_now (the home
-- page) and who_is_here (who is playing what) show it only to those who may read the post — its
-- author and the room's owner and moderators — while reports hide it.

create or replace function public.live_now(max_sessions integer DEFAULT 12) RETURNS TABLE(session_id uuid, room_id uuid, slug text, name text, cover_path text, visibility text, is_member boolean, host_name text, post_id uuid, post_title text, playing boolean, started_at timestamp with time zone, listeners integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select s.id, r.id, r.slug, r.name, r.cover_path, r.visibility, mine.room_id is not null,
    h.display_name, s.post_id, po.title, s.playing, s.started_at, coalesce(l.listeners, 0)
  from public.listening_sessions s
  join public.rooms r on r.id = s.room_id
  left join (select private.my_room_ids() as room_id) mine on mine.room_id = r.id
  left join public.profiles h on h.id = s.host_id
  left join public.posts po on po.id = s.post_id
    and (not private.post_hidden_from_caller(po.id) or private.moderates_room(r.id))
  left join lateral (
    select count(distinct p.user_id)::integer as listeners from public.presence p
    where p.room_id = s.room_id and p.session_id = s.id
      and p.seen_at > now() - private.presence_lifetime()
      and private.is_current_member(s.room_id, p.user_id)
  ) l on true
  where s.ended_at is null
    and (r.visibility = 'public' or mine.room_id is not null)
    and not private.session_is_over(s)
  order by coalesce(l.listeners, 0) desc, s.started_at desc, s.id
  limit least(greatest(coalesce(max_sessions, 12), 1), 50);
$$;

create or replace function public.who_is_here(target_room uuid) RETURNS TABLE(user_id uuid, username text, display_name text, avatar_path text, ens_name text, ens_avatar text, role text, session_id uuid, playing_post_id uuid, playing_title text, following boolean, since timestamp with time zone, seen_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  with fresh as (
    select p.*
    from public.presence p
    where p.room_id = target_room
      and p.seen_at > now() - private.presence_lifetime()
      and private.can_read_room_content(target_room)
      and private.is_current_member(target_room, p.user_id)
  ),
  per_person as (
    select f.user_id,
      (array_agg(f.session_id order by f.seen_at desc) filter (where f.session_id is not null))[1] as session_id,
      (array_agg(f.playing_post_id order by f.seen_at desc) filter (where f.playing_post_id is not null))[1] as playing_post_id,
      max(f.seen_at) as seen_at
    from fresh f
    group by f.user_id
  )
  select pp.user_id, pr.username, pr.display_name, pr.avatar_path, w.ens_name, w.ens_avatar, m.role,
    pp.session_id, pp.playing_post_id, po.title,
    coalesce((select bool_or(f.following) from fresh f where f.user_id = pp.user_id and f.session_id = pp.session_id), true),
    (select min(f.since) from fresh f where f.user_id = pp.user_id and f.session_id is not distinct from pp.session_id),
    pp.seen_at
  from per_person pp
  join public.profiles pr on pr.id = pp.user_id
  join public.memberships m on m.room_id = target_room and m.user_id = pp.user_id
  left join public.posts po on po.id = pp.playing_post_id
    and (not private.post_hidden_from_caller(po.id) or private.moderates_room(target_room))
  left join lateral (
    select wa.ens_name, wa.ens_avatar from public.wallets wa
    where wa.user_id = pp.user_id and wa.ens_name is not null
    order by wa.verified_at, wa.address
    limit 1
  ) w on true;
$$;

