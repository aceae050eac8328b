-- DJ turns and votes to skip: the owner's setting; the waitlist (join with a pick, leave, reorder,
-- remove) and who may change it; turns passing in order (the DJ's "next", time running out, a DJ
-- leaving mid-turn or losing their membership, a quiet DJ claimed past); the host's hand-off and
-- other posts refused in DJ turns; votes counted against the people listening along when the vote
-- started, once each, and the skip at the share — not before.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(67);

-- people: owner o (…a), moderator m (…b), members h (…c) and p (…d), outsider n (…e); room: public.
create function pg_temp.here(person uuid, following boolean default true) returns void
language plpgsql as $$
begin
  perform pg_temp.act_as('authenticated', person);
  perform public.mark_here('5e100000-0000-4000-8000-000000000001', ('5e900000-0000-4000-8000-' || right(person::text, 12))::uuid, pg_temp.sid('dj'), null, following);
end $$;
create function pg_temp.dj() returns text language sql security definer as $$
  select coalesce((select username from public.profiles where id = (pg_temp.row_of('dj')).host_id), '-') $$;
create function pg_temp.waitlist() returns text language sql security definer as $$
  select coalesce(string_agg(pr.username || ':' || coalesce(po.title, '-'), ',' order by e.place), '')
  from jsonb_array_elements((pg_temp.row_of('dj')).dj_waitlist) with ordinality e(entry, place)
  join public.profiles pr on pr.id = (e.entry ->> 'user_id')::uuid
  left join public.posts po on po.id = (e.entry ->> 'post_id')::uuid $$;
create function pg_temp.playing() returns text language sql security definer as $$
  select coalesce((select title from public.posts where id = (pg_temp.row_of('dj')).post_id), '-') $$;

-- ---------------------------------------------------------------------------------------------
-- The owner's setting
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_ok($$ select public.set_session_rules('5e100000-0000-4000-8000-000000000001', 'dj_turns', 60, 0.5) $$,
  '42501', 'Only the owner decides how listening sessions run', 'a moderator cannot set how sessions run');
select throws_ok($$ update public.rooms set session_mode = 'dj_turns' where id = '5e100000-0000-4000-8000-000000000001' $$,
  '42501', 'permission denied for table rooms', '…nor write the column');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_ok($$ select public.set_session_rules('5e100000-0000-4000-8000-000000000001', 'turns', 60, 0.5) $$,
  '22023', 'Choose hosted sessions or DJ turns', 'an unknown mode is refused in words');
select throws_ok($$ select public.set_session_rules('5e100000-0000-4000-8000-000000000001', 'dj_turns', 30, 0.5) $$,
  '22023', 'Turns last between 1 and 60 minutes', 'a turn under a minute is refused');
select throws_ok($$ select public.set_session_rules('5e100000-0000-4000-8000-000000000001', 'dj_turns', 60, 0) $$,
  '22023', 'The share to skip is between 10% and 100%', 'a share of nothing is refused');
select is((public.set_session_rules('5e100000-0000-4000-8000-000000000001', 'dj_turns', 60, 0.5)).session_mode, 'dj_turns', 'the owner sets DJ turns');

-- ---------------------------------------------------------------------------------------------
-- A session in DJ turns starts with nobody playing and no queue
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('dj', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001', 3));
select is(array[(pg_temp.row_of('dj')).mode, coalesce((pg_temp.row_of('dj')).host_id::text, '-'), pg_temp.playing()], array['dj_turns', '-', '-'],
  'the session runs in DJ turns, with nobody playing yet');
select is((select count(*)::int from public.session_queue where session_id = pg_temp.sid('dj')), 0, 'the newest posts are not queued');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000d') $$,
  'PT409', 'In DJ turns, each DJ picks their own post — join the waitlist', 'nobody queues posts in DJ turns');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');

-- ---------------------------------------------------------------------------------------------
-- The waitlist
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  'PT409', 'Open the session to join the waitlist', 'someone not in the session cannot join its waitlist');
select pg_temp.here('5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001') $$,
  '22023', 'Turns last up to 1 minute in this room — pick a shorter post', 'a post longer than a turn is refused');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000004') $$,
  '23503', 'That post isn''t in this room', 'another room''s post is refused');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), null) $$,
  '22023', 'Pick a post to play on your turn', 'joining needs a post');
select lives_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$, 'h joins with p2');
select is(array[pg_temp.dj(), pg_temp.playing(), (pg_temp.row_of('dj')).playing::text, (pg_temp.row_of('dj')).turn::text, pg_temp.waitlist()],
  array['ls_host', 'p2', 'true', '1', ''], 'nobody was playing: h''s turn starts at once, playing their post');
select ok((pg_temp.row_of('dj')).turn_ends_at between now() + interval '59 seconds' and clock_timestamp() + interval '60 seconds', '…for up to the room''s minute');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  'PT409', 'It''s your turn now — pick your next post once it ends', 'the DJ playing does not join again');

select pg_temp.here('5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000003') $$, 'p joins with p3');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  'PT409', 'You''re already on the waitlist', 'nobody is on the waitlist twice');
select pg_temp.here('5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000003') $$, 'm joins too');
select is(pg_temp.waitlist(), 'ls_member:p3,ls_mod:p3', 'the waitlist is in the order people joined');
select lives_ok($$ select public.pick_dj_post(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$, 'm picks another post');
select is(pg_temp.waitlist(), 'ls_member:p3,ls_mod:p2', '…and the waitlist says so');

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot join the waitlist');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.move_dj(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000b', 1) $$,
  '42501', 'Only moderators and the owner reorder the waitlist', 'a member cannot reorder the waitlist');
select throws_ok($$ select public.remove_dj(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000b') $$,
  '42501', 'Only moderators and the owner take DJs off the waitlist', 'nor take someone off it');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select public.move_dj(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000b', 1) $$, 'a moderator moves a DJ up');
select is(pg_temp.waitlist(), 'ls_mod:p2,ls_member:p3', '…to first');
select throws_ok($$ select public.move_dj(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000a', 1) $$,
  'PT409', 'That person isn''t on the waitlist', 'moving someone not on the list says so');

-- ---------------------------------------------------------------------------------------------
-- Who plays is the waitlist's to say
-- ---------------------------------------------------------------------------------------------
select throws_ok($$ select public.hand_over_session(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000d') $$,
  '42501', 'In DJ turns, the waitlist decides who plays', 'nobody hands the turn over');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok($$ select public.set_session_playback(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000003', 0, true) $$,
  '42501', 'Each turn plays the post its DJ picked', 'the DJ cannot load another post');
select lives_ok($$ select public.set_session_playback(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002', 10, false) $$, 'the DJ pauses and seeks their post');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.play_next_in_session(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  '42501', 'It''s not your turn', 'only the DJ moves on');

-- The DJ's "next" (their post ended): the turn passes in order; h goes to the back to pick again.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.play_next_in_session(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$, 'h''s post ends');
select is(array[pg_temp.dj(), pg_temp.playing(), (pg_temp.row_of('dj')).turn::text, pg_temp.waitlist()],
  array['ls_mod', 'p2', '2', 'ls_member:p3,ls_host:-'], 'm plays next; h waits at the back to pick');
select throws_ok($$ select public.play_next_in_session(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  '42501', 'It''s not your turn', 'a second "next" from the last DJ is refused');
select is((pg_temp.row_of('dj')).turn, 2::bigint, '…and passes nothing');

-- Time running out: asked early, nothing happens; once it is up, the turn passes once.
select is((public.end_dj_turn_if_over(pg_temp.sid('dj'), 2)).turn, 2::bigint, 'a turn with time left goes on');
select pg_temp.act_as_superuser();
update public.listening_sessions set turn_ends_at = clock_timestamp() - interval '1 second' where id = pg_temp.sid('dj');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((public.end_dj_turn_if_over(pg_temp.sid('dj'), 2)).turn, 3::bigint, 'a turn whose time is up passes');
select is((public.end_dj_turn_if_over(pg_temp.sid('dj'), 2)).turn, 3::bigint, '…once, however many pages say so');
select is(array[pg_temp.dj(), pg_temp.playing(), pg_temp.waitlist()], array['ls_member', 'p3', 'ls_host:-,ls_mod:-'],
  'p plays; h (no pick yet) is passed over but keeps their place');

-- A DJ leaving mid-turn: the turn passes; nobody has a pick, so nobody plays.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select lives_ok($$ select public.leave_dj_waitlist(pg_temp.sid('dj')) $$, 'p leaves mid-turn');
select is(array[pg_temp.dj(), pg_temp.playing(), (pg_temp.row_of('dj')).playing::text, pg_temp.waitlist()], array['-', '-', 'false', 'ls_host:-,ls_mod:-'],
  'the turn passed, p is off the list, and with no post picked nobody plays');
select throws_ok($$ select public.leave_dj_waitlist(pg_temp.sid('dj')) $$, 'PT409', 'You''re not on the waitlist', 'leaving twice says so');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.pick_dj_post(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000003') $$, 'h picks their next post');
select is(array[pg_temp.dj(), pg_temp.playing(), pg_temp.waitlist()], array['ls_host', 'p3', 'ls_mod:-'], '…and, nobody playing, their turn starts');

-- ---------------------------------------------------------------------------------------------
-- Voting to skip: m, p and o follow (h is the DJ); half of them, rounded up, skip
-- ---------------------------------------------------------------------------------------------
select pg_temp.here('5e000000-0000-4000-8000-00000000000a');
select pg_temp.here('5e000000-0000-4000-8000-00000000000d');
select pg_temp.here('5e000000-0000-4000-8000-00000000000b');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select throws_ok(format('select public.vote_to_skip(%L, %s)', pg_temp.sid('dj'), (pg_temp.row_of('dj')).track),
  'PT409', 'It''s your turn — press Next to move on', 'the DJ does not vote on their own track');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select throws_ok(format('select public.vote_to_skip(%L, %s)', pg_temp.sid('dj'), (pg_temp.row_of('dj')).track),
  '42501', 'Only members of the room can take part in its session', 'an outsider cannot vote');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select is(array[(public.vote_to_skip(pg_temp.sid('dj'), (pg_temp.row_of('dj')).track)).skip_votes, (pg_temp.row_of('dj')).skip_needed], array[1, 2],
  'm votes: 1 of the 2 votes that skip (half of three listening along)');
select is(pg_temp.playing(), 'p3', '…and the track plays on');
select throws_ok(format('select public.vote_to_skip(%L, %s)', pg_temp.sid('dj'), (pg_temp.row_of('dj')).track),
  '23505', 'You already voted on this track', 'one vote per person per track');
-- o listens on their own now: their vote does not count.
select pg_temp.here('5e000000-0000-4000-8000-00000000000a', false);
select throws_ok(format('select public.vote_to_skip(%L, %s)', pg_temp.sid('dj'), (pg_temp.row_of('dj')).track),
  '42501', 'Only people listening along can vote', 'someone listening on their own cannot vote');
-- n joins the room and the session after the vote started.
select pg_temp.act_as_superuser();
insert into public.memberships (room_id, user_id, role) values ('5e100000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000e', 'member');
select pg_temp.here('5e000000-0000-4000-8000-00000000000e');
select throws_ok(format('select public.vote_to_skip(%L, %s)', pg_temp.sid('dj'), (pg_temp.row_of('dj')).track),
  'PT409', 'You joined after this vote started — you can vote on the next track', 'someone who joined after the vote started waits for the next track');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok(format('select public.vote_to_skip(%L, %s)', pg_temp.sid('dj'), (pg_temp.row_of('dj')).track - 1),
  'PT409', 'That track has already moved on', 'a vote on a track gone by is refused');
select is(coalesce((public.vote_to_skip(pg_temp.sid('dj'), (pg_temp.row_of('dj')).track)).host_id::text, '-'), '-', 'p''s vote reaches the share: the track is skipped');
select is(array[pg_temp.dj(), pg_temp.playing(), (pg_temp.row_of('dj')).skip_votes::text, (pg_temp.row_of('dj')).skip_needed::text],
  array['-', '-', '0', '0'], 'the turn passed (m has no pick, so nobody plays); the tally starts again');
select is(pg_temp.waitlist(), 'ls_mod:-,ls_host:-', 'the skipped DJ goes to the back to pick again');

-- ---------------------------------------------------------------------------------------------
-- A DJ whose membership ends mid-turn, and a DJ who went quiet
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select lives_ok($$ select public.pick_dj_post(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$, 'h picks again');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select public.pick_dj_post(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000003') $$, 'm picks');
select is(array[pg_temp.dj(), pg_temp.playing(), pg_temp.waitlist()], array['ls_host', 'p2', 'ls_mod:p3'], 'h picked first, nobody was playing: h plays; m waits');
select pg_temp.act_as_superuser();
delete from public.memberships where room_id = '5e100000-0000-4000-8000-000000000001' and user_id = '5e000000-0000-4000-8000-00000000000c';
select is(array[pg_temp.dj(), pg_temp.playing(), pg_temp.waitlist()], array['ls_mod', 'p3', ''], 'h is no longer a member: the turn passes to m');

-- m goes quiet: a claim of the host's place passes the turn rather than taking it.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is((public.claim_session_host(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000b')).host_id, '5e000000-0000-4000-8000-00000000000b'::uuid,
  'while the DJ is heard, a claim changes nothing');
select pg_temp.act_as_superuser();
update public.listening_sessions set host_seen_at = clock_timestamp() - interval '6 seconds' where id = pg_temp.sid('dj');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is(array[coalesce((public.claim_session_host(pg_temp.sid('dj'), '5e000000-0000-4000-8000-00000000000b')).host_id::text, '-'), pg_temp.waitlist()],
  array['-', ''], 'a quiet DJ''s turn passes (to nobody: no one else has a pick), and the claimer does not host');

-- ---------------------------------------------------------------------------------------------
-- A hosted session: the vote that reaches the share plays the next queued post
-- ---------------------------------------------------------------------------------------------
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('gh', public.start_listening_session('5e100000-0000-4000-8000-000000000002', '5e200000-0000-4000-8000-000000000004', 1));
select public.set_session_playback(pg_temp.sid('gh'), '5e200000-0000-4000-8000-000000000004', 0, true);
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select public.mark_here('5e100000-0000-4000-8000-000000000002', '5e900000-0000-4000-8000-0000000000d2', pg_temp.sid('gh'));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select public.mark_here('5e100000-0000-4000-8000-000000000002', '5e900000-0000-4000-8000-0000000000c2', pg_temp.sid('gh'));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select public.mark_here('5e100000-0000-4000-8000-000000000002', '5e900000-0000-4000-8000-0000000000a2', pg_temp.sid('gh'));
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select is((public.vote_to_skip(pg_temp.sid('gh'), (pg_temp.row_of('gh')).track)).skip_votes, 1, 'in a hosted session, h''s vote is 1 of 2');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select is(array[(public.vote_to_skip(pg_temp.sid('gh'), (pg_temp.row_of('gh')).track)).post_id::text, (pg_temp.row_of('gh')).host_id::text],
  array['5e200000-0000-4000-8000-000000000006', '5e000000-0000-4000-8000-00000000000b'], 'p''s vote skips to the next queued post; the host stays');
select is((select count(*)::int from public.session_skip_ballots where session_id = pg_temp.sid('gh')), 1, 'a listener reads only their own ballot');
select pg_temp.act_as_superuser();
select is((select count(*)::int from public.session_skip_ballots where session_id = pg_temp.sid('gh')), 3, 'the three listening along had a ballot each');

select * from finish();
rollback;
