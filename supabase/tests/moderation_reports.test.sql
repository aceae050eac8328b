-- Reports, hidden items and the moderators' actions on them (20261129000500_hidden_and_held_items.sql,
-- 20261129000600_reports.sql): who reports what (once, never their own, members only), the threshold
-- that hides an item (distinct members of at least a day), who sees a hidden item over REST and on
-- the live channel, removal and dismissal with their log entries and the queue — for anon, an
-- outsider, a member, a new member, the author, a moderator, the owner and the service role.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(88);

-- owner o (…01), moderator m (…02), members a b c (…03-05, a week in), new member n (…06, today),
-- author w (…07, a week in), outsider x (…08)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
select ('36000000-0000-4000-8000-0000000000' || k)::uuid, 'authenticated', 'authenticated', 'rep-' || k || '@example.test',
       json_build_object('username', 'rep_u' || k)::jsonb, now(), now()
from unnest(array['01', '02', '03', '04', '05', '06', '07', '08']) k;
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('36100000-0000-4000-8000-000000000001', 'rep-room', 'Report room', '36000000-0000-4000-8000-000000000001', 'public'),
  ('36100000-0000-4000-8000-000000000002', 'rep-other', 'Other room', '36000000-0000-4000-8000-000000000008', 'public');
insert into public.memberships (room_id, user_id, role, joined_at) values
  ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000002', 'moderator', now() - interval '7 days'),
  ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000003', 'member', now() - interval '7 days'),
  ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000004', 'member', now() - interval '7 days'),
  ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000005', 'member', now() - interval '7 days'),
  ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000006', 'member', now() - interval '2 hours'),
  ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000007', 'member', now() - interval '7 days');
-- posts P1 (reports), P2 (threshold), P3 (removed through REST) by w; comment C1 on P1 by w
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('36200000-0000-4000-8000-000000000001', '36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000007', 'Reported post', 'embed', 'https://vimeo.com/1'),
  ('36200000-0000-4000-8000-000000000002', '36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000007', 'Threshold post', 'embed', 'https://vimeo.com/2'),
  ('36200000-0000-4000-8000-000000000003', '36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000007', 'Removed post', 'embed', 'https://vimeo.com/3');
insert into public.moments (id, post_id, author_id, body) values
  ('36300000-0000-4000-8000-000000000001', '36200000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000007', 'A comment people dislike');

-- ---------------------------------------------------------------------------------------------
-- Who reports
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000001')$$, '42501', null, 'anon cannot report');
select pg_temp.act_as('service_role');
select throws_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000001')$$, '42501', 'Sign in to report something', 'the service role is nobody to report as');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000008');
select throws_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000001')$$, '42501', 'Join the room to report what''s in it', 'an outsider cannot report');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000007');
select throws_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000001')$$, '42501', 'You can''t report your own post', 'the author cannot report their own post');
select throws_ok($$select public.report_content('spam', null, '36300000-0000-4000-8000-000000000001')$$, '42501', 'You can''t report your own comment', 'the author cannot report their own comment');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select throws_ok($$select public.report_content('spam')$$, '22023', 'Name one post or one comment', 'a report names an item');
select throws_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000001', '36300000-0000-4000-8000-000000000001')$$, '22023', 'Name one post or one comment', 'a report names one item only');
select throws_ok($$select public.report_content('rude', '36200000-0000-4000-8000-000000000001')$$, '23514', null, 'a category outside the list is refused');
select throws_ok($$select public.report_content('other', '36200000-0000-4000-8000-000000000001', null, repeat('n', 501))$$, '23514', null, 'a note over 500 characters is refused');
select throws_ok($$select public.report_content('spam', '36200000-0000-4000-8000-0000000000ff')$$, '23503', 'That post no longer exists', 'a post that is not there cannot be reported');
select is((select status from public.report_content('spam', '36200000-0000-4000-8000-000000000001', null, 'links to a scam')), 'open', 'a member reports a post');
select throws_ok($$select public.report_content('hate', '36200000-0000-4000-8000-000000000001')$$, '23505', 'You''ve already reported this post', 'a member reports a post once');
select is((select category from public.report_content('harassment', null, '36300000-0000-4000-8000-000000000001')), 'harassment', 'a member reports a comment');
select throws_ok($$select public.report_content('spam', null, '36300000-0000-4000-8000-000000000001')$$, '23505', 'You''ve already reported this comment', 'a member reports a comment once');
select throws_ok($$insert into public.reports (room_id, reporter_id, post_id, category) values ('36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000003', '36200000-0000-4000-8000-000000000002', 'spam')$$,
  '42501', null, 'nobody inserts a report past report_content');
select throws_ok($$update public.reports set status = 'dismissed'$$, '42501', null, 'a reporter cannot change their report');
select throws_ok($$delete from public.reports$$, '42501', null, 'a reporter cannot delete their report');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000006');
select is((select status from public.report_content('other', '36200000-0000-4000-8000-000000000001')), 'open', 'a new member reports too');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is((select status from public.report_content('spam', '36200000-0000-4000-8000-000000000001')), 'open', 'a moderator reports too');

-- ---------------------------------------------------------------------------------------------
-- Who reads reports
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$select count(*) from public.reports$$, '42501', null, 'anon reads no reports');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000008');
select is((select count(*)::int from public.reports), 0, 'an outsider reads no reports');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select is((select count(*)::int from public.reports), 2, 'a reporter reads their own reports');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000004');
select is((select count(*)::int from public.reports), 0, 'another member reads none of them');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000007');
select is((select count(*)::int from public.reports), 0, 'the reported author reads none of them');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is((select count(*)::int from public.reports), 4, 'a moderator reads the room''s reports');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000001');
select is((select count(*)::int from public.reports), 4, 'the owner reads the room''s reports');
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.reports where room_id = '36100000-0000-4000-8000-000000000001'), 4, 'the service role reads reports');

-- ---------------------------------------------------------------------------------------------
-- The threshold (3): distinct members of at least a day with open reports
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
delete from realtime.messages where topic like 'room:36100000-0000-4000-8000-000000000001%' or topic like 'moderation:36100000-%';
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select lives_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000002')$$, 'the first established member reports');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000004');
select lives_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000002')$$, 'the second established member reports');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000006');
select lives_ok($$select public.report_content('spam', '36200000-0000-4000-8000-000000000002')$$, 'a member of two hours reports');
select pg_temp.act_as_superuser();
select is((select hidden_at from public.posts where id = '36200000-0000-4000-8000-000000000002'), null, 'two established members and a new one do not reach a threshold of 3');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000005');
select lives_ok($$select public.report_content('sexual', '36200000-0000-4000-8000-000000000002')$$, 'the third established member reports');
select pg_temp.act_as_superuser();
select isnt((select hidden_at from public.posts where id = '36200000-0000-4000-8000-000000000002'), null, 'the third established member''s report hides the post');
select is((select count(*)::int from public.moderation_log where action = 'post_hidden' and post_id = '36200000-0000-4000-8000-000000000002' and actor_id is null
   and target_user_id = '36000000-0000-4000-8000-000000000007' and reason = 'Reported by 3 members'), 1, 'the hiding is logged: post_hidden, by nobody, of the author, with the count');

-- On the live channel: the post leaves as a delete, and its words leave the channel's messages
select is((select count(*)::int from realtime.messages where topic = 'room:36100000-0000-4000-8000-000000000001' and event = 'posts'
           and payload ->> 'operation' = 'DELETE' and payload -> 'old_record' ->> 'id' = '36200000-0000-4000-8000-000000000002' and payload -> 'record' = 'null'::jsonb),
  1, 'a post that becomes hidden is sent to the room as a delete (ids only)');
select is((select count(*)::int from realtime.messages where topic like 'room:36100000-0000-4000-8000-000000000001%' and payload::text like '%Threshold post%'),
  0, 'no message on the room''s channel carries the hidden post''s words');
select ok((select count(*) from realtime.messages where topic = 'moderation:36100000-0000-4000-8000-000000000001' and event = 'queue'
           and payload ->> 'post_id' = '36200000-0000-4000-8000-000000000002') >= 4, 'each report is signalled on the moderators'' topic');
delete from realtime.messages where topic = 'moderation:36100000-0000-4000-8000-000000000001';
select is(pg_temp.visible('moderation:36100000-0000-4000-8000-000000000001', 'authenticated', '36000000-0000-4000-8000-000000000002'), 2, 'a moderator joins the moderators'' topic');
select is(pg_temp.visible('moderation:36100000-0000-4000-8000-000000000001', 'authenticated', '36000000-0000-4000-8000-000000000001'), 2, 'the owner joins the moderators'' topic');
select is(pg_temp.visible('moderation:36100000-0000-4000-8000-000000000001', 'authenticated', '36000000-0000-4000-8000-000000000003'), 0, 'a member does not join the moderators'' topic');
select is(pg_temp.visible('moderation:36100000-0000-4000-8000-000000000001', 'anon'), 0, 'anon does not join the moderators'' topic');

-- The same for a comment
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000004');
select lives_ok($$select public.report_content('harassment', null, '36300000-0000-4000-8000-000000000001')$$, 'a second member reports the comment');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000005');
select lives_ok($$select public.report_content('hate', null, '36300000-0000-4000-8000-000000000001', 'slur')$$, 'a third member reports the comment');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.moderation_log where action = 'comment_hidden' and moment_id = '36300000-0000-4000-8000-000000000001' and actor_id is null),
  1, 'three members'' reports hide the comment, logged as comment_hidden');

-- ---------------------------------------------------------------------------------------------
-- Who sees a hidden item
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 0, 'anon does not see a hidden post of a public room');
select is((select count(*)::int from public.moments where id = '36300000-0000-4000-8000-000000000001'), 0, 'anon does not see a hidden comment');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000001'), 1, 'anon still sees the room''s other posts');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000008');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 0, 'an outsider does not see a hidden post');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 0, 'a member (a reporter) does not see a hidden post');
select is((select count(*)::int from public.moments where id = '36300000-0000-4000-8000-000000000001'), 0, 'a member does not see a hidden comment');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000007');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002' and hidden_at is not null), 1, 'the author sees their hidden post, marked hidden');
select is((select count(*)::int from public.moments where id = '36300000-0000-4000-8000-000000000001' and hidden_at is not null), 1, 'the author sees their hidden comment');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 1, 'a moderator sees a hidden post');
select is((select count(*)::int from public.moments where id = '36300000-0000-4000-8000-000000000001'), 1, 'a moderator sees a hidden comment');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000001');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 1, 'the owner sees a hidden post');
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 1, 'the service role sees a hidden post');

-- A hidden post's uploaded file: its author and the moderators only
select pg_temp.act_as_superuser();
insert into storage.buckets (id, name, public) values ('media', 'media', false) on conflict (id) do nothing;
insert into storage.objects (bucket_id, name, owner_id, metadata) values
  ('media', '36100000-0000-4000-8000-000000000001/36000000-0000-4000-8000-000000000007/song.mp3', '36000000-0000-4000-8000-000000000007', '{"size": 10, "mimetype": "audio/mpeg"}');
insert into public.posts (id, room_id, author_id, title, media_kind, storage_path, hidden_at) values
  ('36200000-0000-4000-8000-000000000004', '36100000-0000-4000-8000-000000000001', '36000000-0000-4000-8000-000000000007', 'Hidden upload', 'upload',
   '36100000-0000-4000-8000-000000000001/36000000-0000-4000-8000-000000000007/song.mp3', now());
select pg_temp.act_as('anon');
select is((select count(*)::int from storage.objects where name = '36100000-0000-4000-8000-000000000001/36000000-0000-4000-8000-000000000007/song.mp3'), 0, 'anon does not read a hidden post''s file');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000004');
select is((select count(*)::int from storage.objects where name = '36100000-0000-4000-8000-000000000001/36000000-0000-4000-8000-000000000007/song.mp3'), 0, 'a member does not read a hidden post''s file');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000007');
select is((select count(*)::int from storage.objects where name = '36100000-0000-4000-8000-000000000001/36000000-0000-4000-8000-000000000007/song.mp3'), 1, 'the author reads their hidden post''s file');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is((select count(*)::int from storage.objects where name = '36100000-0000-4000-8000-000000000001/36000000-0000-4000-8000-000000000007/song.mp3'), 1, 'a moderator reads a hidden post''s file');
select pg_temp.act_as_superuser();
delete from public.posts where id = '36200000-0000-4000-8000-000000000004';

-- ---------------------------------------------------------------------------------------------
-- The queue
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$select * from public.moderation_queue('36100000-0000-4000-8000-000000000001')$$, '42501', null, 'anon has no queue');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select throws_ok($$select * from public.moderation_queue('36100000-0000-4000-8000-000000000001')$$, '42501',
  'Only the room''s owner and moderators can see the moderation queue', 'a member is refused the queue');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000008');
select throws_ok($$select * from public.moderation_queue('36100000-0000-4000-8000-000000000001')$$, '42501',
  'Only the room''s owner and moderators can see the moderation queue', 'an outsider is refused the queue');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is((select array_agg(kind || ':' || report_count || ':' || array_to_string(categories, ',') order by queued_at desc, item_id desc)::text
           from public.moderation_queue('36100000-0000-4000-8000-000000000001')),
  '{"comment:3:harassment,hate","post:4:sexual,spam","post:3:other,spam"}', 'a moderator reads the queue: each item with its open reports, newest first');
select is((select post_title || '|' || author_username || '|' || (hidden_at is not null) from public.moderation_queue('36100000-0000-4000-8000-000000000001') where kind = 'comment'),
  'Reported post|rep_u07|true', 'a queued comment comes with its post and author');
select is((select count(*)::int from public.moderation_queue('36100000-0000-4000-8000-000000000001', null, null, 1)), 1, 'the queue is paged');
select is((select count(*)::int from public.moderation_queue('36100000-0000-4000-8000-000000000001',
           (select queued_at from public.moderation_queue('36100000-0000-4000-8000-000000000001') order by queued_at desc limit 1),
           (select item_id from public.moderation_queue('36100000-0000-4000-8000-000000000001') order by queued_at desc limit 1))), 2, 'the next page starts after the last item');

-- ---------------------------------------------------------------------------------------------
-- Dismissing and removing
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select throws_ok($$select public.dismiss_reports('36200000-0000-4000-8000-000000000002')$$, '42501', 'Only the room''s owner and moderators can dismiss reports', 'a member cannot dismiss reports');
select throws_ok($$select public.remove_content('36200000-0000-4000-8000-000000000002')$$, '42501', 'Only the room''s owner and moderators can remove what others posted', 'a member cannot remove others'' posts');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000007');
select throws_ok($$select public.dismiss_reports('36200000-0000-4000-8000-000000000002')$$, '42501', null, 'the author cannot dismiss reports of their post');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is(public.dismiss_reports('36200000-0000-4000-8000-000000000002', null, 'Not spam: a remix'), 4, 'a moderator dismisses the hidden post''s four reports');
select is((select hidden_at from public.posts where id = '36200000-0000-4000-8000-000000000002'), null, 'dismissing shows the post again');
select throws_ok($$select public.dismiss_reports('36200000-0000-4000-8000-000000000002')$$, 'PT409', 'This post has no open reports', 'there is nothing more to dismiss');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000003');
select is((select status || '|' || (resolved_by = '36000000-0000-4000-8000-000000000002') from public.reports where post_id = '36200000-0000-4000-8000-000000000002'),
  'dismissed|true', 'the reporter reads that their report was dismissed, and by whom');
select is((select count(*)::int from public.posts where id = '36200000-0000-4000-8000-000000000002'), 1, 'members see the post again');

select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000001');
select lives_ok($$select public.remove_content(null, '36300000-0000-4000-8000-000000000001', 'Slurs are not welcome')$$, 'the owner removes the hidden comment');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.moments where id = '36300000-0000-4000-8000-000000000001'), 0, 'the comment is gone');
select is((select array_agg(distinct status || ':' || resolved_by)::text from public.reports where reporter_id in ('36000000-0000-4000-8000-000000000003', '36000000-0000-4000-8000-000000000004', '36000000-0000-4000-8000-000000000005') and post_id is null and moment_id is null),
  '{actioned:36000000-0000-4000-8000-000000000001}', 'its reports are actioned by the owner, and outlive it');
select is((select array_agg(action || ':' || reason order by action)::text from public.moderation_log where moment_id = '36300000-0000-4000-8000-000000000001' and actor_id = '36000000-0000-4000-8000-000000000001'),
  '{"comment_removed:Slurs are not welcome","report_actioned:3 open reports"}', 'the removal and the reports'' resolution are logged with the owner as actor');

-- Through REST: a moderator's delete of someone else's post is logged; an author's own is not
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is(pg_temp.touched($$delete from public.posts where id = '36200000-0000-4000-8000-000000000003'$$), 1, 'a moderator deletes a member''s post through REST');
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000007');
select is(pg_temp.touched($$delete from public.posts where id = '36200000-0000-4000-8000-000000000001'$$), 1, 'the author deletes their own reported post');
select pg_temp.act_as_superuser();
select is((select array_agg(action || ':' || post_id order by created_at)::text from public.moderation_log
           where action = 'post_removed' and post_id in ('36200000-0000-4000-8000-000000000001', '36200000-0000-4000-8000-000000000003')),
  '{post_removed:36200000-0000-4000-8000-000000000003}', 'the moderator''s delete is logged as post_removed; the author''s own delete is not');
select is((select count(*)::int from public.reports where status = 'actioned' and resolved_by is null and post_id is null and moment_id is null and category = 'spam' and note = 'links to a scam'),
  1, 'a post its author deleted leaves its reports actioned, by nobody');
select is((select count(*)::int from public.reports where status = 'open' and room_id = '36100000-0000-4000-8000-000000000001'), 0, 'no report stays open without its item');

-- Reports are rate limited: 20 an hour per person
select pg_temp.act_as_superuser();
insert into private.rate_events (action, person) select 'reports', '36000000-0000-4000-8000-000000000002' from generate_series(1, 20);
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select throws_like($$select public.report_content('spam', '36200000-0000-4000-8000-000000000002')$$, 'You''ve sent a lot of reports — try again in 60 minutes', 'the 21st report in an hour is refused, with the wait');
select pg_temp.act_as_superuser();
delete from private.rate_events where action = 'reports' and person = '36000000-0000-4000-8000-000000000002';

-- A room goes with its reports, open ones included
select pg_temp.act_as('authenticated', '36000000-0000-4000-8000-000000000002');
select is((select status from public.report_content('spam', '36200000-0000-4000-8000-000000000002')), 'open', 'the post shown again after dismissal is reported anew');
select pg_temp.act_as_superuser();
select lives_ok($$delete from public.rooms where id = '36100000-0000-4000-8000-000000000001'$$, 'a room with open reports is deleted');
select is((select count(*)::int from public.reports where room_id = '36100000-0000-4000-8000-000000000001'), 0, 'its reports go with it');

select * from finish();
rollback;
