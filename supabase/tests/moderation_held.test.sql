-- Blocked terms and held comments (20261129000700_blocked_terms.sql): who keeps and reads a room's
-- terms, how a term matches (case, accents, whole words, phrases), who sees a held comment over REST
-- and on the live channel, approval and removal with their log entries — for anon, an outsider, a
-- member, the author, a moderator, the owner and the service role.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
select plan(51);

-- owner o (…01), moderator m (…02), author w (…03), member b (…04), outsider x (…05)
insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
select ('36a00000-0000-4000-8000-0000000000' || k)::uuid, 'authenticated', 'authenticated', 'held-' || k || '@example.test',
       json_build_object('username', 'held_u' || k)::jsonb, now(), now()
from unnest(array['01', '02', '03', '04', '05']) k;
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('36b00000-0000-4000-8000-000000000001', 'held-room', 'Held room', '36a00000-0000-4000-8000-000000000001', 'public'),
  ('36b00000-0000-4000-8000-000000000002', 'held-other', 'Other room', '36a00000-0000-4000-8000-000000000001', 'public');
insert into public.memberships (room_id, user_id, role) values
  ('36b00000-0000-4000-8000-000000000001', '36a00000-0000-4000-8000-000000000002', 'moderator'),
  ('36b00000-0000-4000-8000-000000000001', '36a00000-0000-4000-8000-000000000003', 'member'),
  ('36b00000-0000-4000-8000-000000000001', '36a00000-0000-4000-8000-000000000004', 'member'),
  ('36b00000-0000-4000-8000-000000000002', '36a00000-0000-4000-8000-000000000003', 'member');
insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values
  ('36c00000-0000-4000-8000-000000000001', '36b00000-0000-4000-8000-000000000001', '36a00000-0000-4000-8000-000000000001', 'Held post', 'embed', 'https://vimeo.com/1'),
  ('36c00000-0000-4000-8000-000000000002', '36b00000-0000-4000-8000-000000000002', '36a00000-0000-4000-8000-000000000001', 'Other post', 'embed', 'https://vimeo.com/2');

-- A comment by someone in the room, as them; answers whether it was held.
create function pg_temp.comment_held(author uuid, words text, post uuid default '36c00000-0000-4000-8000-000000000001') returns boolean
language plpgsql as $$
declare made uuid;
begin
  perform pg_temp.act_as('authenticated', author);
  insert into public.moments (post_id, author_id, body) values (post, author, words) returning id into made;
  perform pg_temp.act_as_superuser();
  return (select held_at is not null from public.moments where id = made);
end $$;

-- ---------------------------------------------------------------------------------------------
-- Who keeps the terms
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', 'spam')$$, '42501', null, 'anon cannot block a term');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000005');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', 'spam')$$, '42501', null, 'an outsider cannot block a term');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000004');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', 'spam')$$, '42501', null, 'a member cannot block a term');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000002');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', 'spam')$$, '42501', null, 'a moderator cannot block a term');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000001');
select lives_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', 'spam'), ('36b00000-0000-4000-8000-000000000001', 'Café Noir'), ('36b00000-0000-4000-8000-000000000001', 'c++')$$,
  'the owner blocks terms');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', 'SPÁM')$$, '23505', null, 'a term blocked already (in any case or accent) is refused');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', ' spam ')$$, '23514', null, 'a term with spaces around it is refused');
select throws_ok($$insert into public.room_blocked_terms (room_id, term) values ('36b00000-0000-4000-8000-000000000001', repeat('x', 61))$$, '23514', null, 'a term over 60 characters is refused');
select throws_ok($$update public.room_blocked_terms set term = 'eggs'$$, '42501', null, 'terms are not edited: removed and added');
select is((select count(*)::int from public.room_blocked_terms), 3, 'the owner reads the room''s terms');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000002');
select is((select count(*)::int from public.room_blocked_terms), 3, 'a moderator reads the room''s terms');
select is(pg_temp.touched($$delete from public.room_blocked_terms$$), 0, 'a moderator cannot remove a term');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000004');
select is((select count(*)::int from public.room_blocked_terms), 0, 'a member does not read the room''s terms');
select pg_temp.act_as('anon');
select throws_ok($$select count(*) from public.room_blocked_terms$$, '42501', null, 'anon does not read terms');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.moderation_log where room_id = '36b00000-0000-4000-8000-000000000001' and action = 'blocked_terms_changed'
           and actor_id = '36a00000-0000-4000-8000-000000000001' and reason like 'Added "%"'), 3, 'each added term is logged with the owner as actor');

-- ---------------------------------------------------------------------------------------------
-- What a term holds
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as_superuser();
delete from realtime.messages where topic like 'room:36b00000-0000-4000-8000-000000000001%' or topic like 'moderation:36b00000-%';
select ok(pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'buy my spam today'), 'a comment with the term is held');
select ok(pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'SPAM!'), 'in any case, before punctuation');
select ok(pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'so much spám'), 'with accents');
select ok(pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'a cafe   noir please'), 'a phrase, without its accent, with more space between its words');
select ok(pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'I write C++ daily'), 'a term with punctuation in it');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'Monty Python''s spamalot'), 'a word that only starts with the term is not held');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'antispam filters'), 'a word that only ends with the term is not held');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'a café, noir'), 'the phrase''s words apart are not held');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'spam in another room', '36c00000-0000-4000-8000-000000000002'), 'another room''s comments are not held by this room''s terms');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000002', 'moderators may say spam'), 'a moderator''s comment is not held');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000001', 'the owner may say spam'), 'the owner''s comment is not held');

-- The live channel: a held comment is never sent to the room; moderators hear of it
select is((select count(*)::int from realtime.messages where topic like 'room:36b00000-0000-4000-8000-000000000001%' and event = 'moments'
           and payload -> 'record' ->> 'body' in ('buy my spam today', 'SPAM!', 'so much spám', 'a cafe   noir please', 'I write C++ daily')),
  0, 'no held comment is sent on the room''s channel');
select is((select count(*)::int from realtime.messages where topic like 'room:36b00000-0000-4000-8000-000000000001%' and event = 'moments'
           and payload -> 'record' ->> 'body' = 'Monty Python''s spamalot'), 1, 'a comment that is not held is sent as before');
select is((select count(*)::int from realtime.messages where topic = 'moderation:36b00000-0000-4000-8000-000000000001' and payload ->> 'what' = 'held'),
  5, 'each held comment is signalled (ids only) on the moderators'' topic');

-- ---------------------------------------------------------------------------------------------
-- Who sees a held comment
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('anon');
select is((select count(*)::int from public.moments where post_id = '36c00000-0000-4000-8000-000000000001' and author_id = '36a00000-0000-4000-8000-000000000003'), 3, 'anon sees only the comments that are not held');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000005');
select is((select count(*)::int from public.moments where post_id = '36c00000-0000-4000-8000-000000000001' and author_id = '36a00000-0000-4000-8000-000000000003'), 3, 'an outsider sees only the comments that are not held');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000004');
select is((select count(*)::int from public.moments where post_id = '36c00000-0000-4000-8000-000000000001' and author_id = '36a00000-0000-4000-8000-000000000003'), 3, 'a member sees only the comments that are not held');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000003');
select is((select count(*)::int from public.moments where post_id = '36c00000-0000-4000-8000-000000000001' and author_id = '36a00000-0000-4000-8000-000000000003' and held_at is not null), 5, 'the author sees their held comments, marked held');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000002');
select is((select count(*)::int from public.moments where post_id = '36c00000-0000-4000-8000-000000000001' and author_id = '36a00000-0000-4000-8000-000000000003'), 8, 'a moderator sees held comments');
select is((select count(*)::int from public.moderation_queue('36b00000-0000-4000-8000-000000000001') where kind = 'comment' and held_at is not null and report_count = 0), 5, 'held comments are in the moderators'' queue');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000001');
select is((select count(*)::int from public.moments where post_id = '36c00000-0000-4000-8000-000000000001' and author_id = '36a00000-0000-4000-8000-000000000003'), 8, 'the owner sees held comments');

-- An edit is checked again
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000003');
update public.moments set body = 'now it is spam' where body = 'antispam filters';
select pg_temp.act_as_superuser();
select isnt((select held_at from public.moments where body = 'now it is spam'), null, 'a comment edited to contain a term is held');
select is((select count(*)::int from realtime.messages where topic like 'room:36b00000-0000-4000-8000-000000000001%' and payload::text like '%antispam filters%'), 0, 'its earlier words leave the room''s channel');
select is((select count(*)::int from realtime.messages where topic like 'room:36b00000-0000-4000-8000-000000000001%' and event = 'moments' and payload ->> 'operation' = 'DELETE'), 1, 'and it leaves the room''s pages as a delete');

-- ---------------------------------------------------------------------------------------------
-- Approving and removing
-- ---------------------------------------------------------------------------------------------
select id as held_id from public.moments where body = 'buy my spam today' \gset
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000004');
select throws_ok(format('select public.approve_comment(%L)', :'held_id'), '42501', 'Only the room''s owner and moderators can approve held comments', 'a member cannot approve a held comment');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000003');
select throws_ok($$select public.approve_comment((select id from public.moments where body = 'buy my spam today'))$$, '42501', 'Only the room''s owner and moderators can approve held comments', 'the author cannot approve their own held comment');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000002');
select lives_ok($$select public.approve_comment((select id from public.moments where body = 'buy my spam today'), 'Quoting a film')$$, 'a moderator approves a held comment');
select throws_ok($$select public.approve_comment((select id from public.moments where body = 'buy my spam today'))$$, 'PT409', 'That comment isn''t held', 'a comment is approved once');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000004');
select is((select count(*)::int from public.moments where body = 'buy my spam today' and updated_at = created_at), 1, 'an approved comment is seen by members, and is not marked edited');
select pg_temp.act_as_superuser();
select is((select count(*)::int from realtime.messages where topic = 'room:36b00000-0000-4000-8000-000000000001' and event = 'moments'
           and payload ->> 'operation' = 'INSERT' and payload -> 'record' ->> 'body' = 'buy my spam today'), 1, 'an approved comment arrives on the room''s channel as new');
select is((select count(*)::int from public.moderation_log where action = 'approved' and actor_id = '36a00000-0000-4000-8000-000000000002'
           and target_user_id = '36a00000-0000-4000-8000-000000000003' and reason = 'Quoting a film'), 1, 'the approval is logged');
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000002');
select lives_ok($$select public.remove_content(null, (select id from public.moments where body = 'SPAM!'), 'Spam')$$, 'a moderator removes a held comment');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.moderation_log where action = 'comment_removed' and actor_id = '36a00000-0000-4000-8000-000000000002' and reason = 'Spam'), 1, 'the removal is logged with its reason');

-- Removing terms
select pg_temp.act_as('authenticated', '36a00000-0000-4000-8000-000000000001');
select is(pg_temp.touched($$delete from public.room_blocked_terms where room_id = '36b00000-0000-4000-8000-000000000001'$$), 3, 'the owner removes the room''s terms');
select ok(not pg_temp.comment_held('36a00000-0000-4000-8000-000000000003', 'spam again'), 'with no terms left, nothing is held');
select is((select count(*)::int from public.moderation_log where room_id = '36b00000-0000-4000-8000-000000000001' and action = 'blocked_terms_changed' and reason like 'Removed "%"'), 3, 'each removed term is logged');

select * from finish();
rollback;
