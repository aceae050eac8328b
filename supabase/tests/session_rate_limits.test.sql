-- What one member's page can make the database tell a whole session is limited per person: ready
-- marks that are news (60 a minute) and DJ waitlist changes (20 a minute), refused with PT429 in
-- words, the refused one sending nothing. A mark that is not news still records; other people are
-- not held back by one person's limit.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
\ir helpers/rate_burst.psql
select plan(15);

-- people: owner o (…a), moderator m (…b), members h (…c) and p (…d); room: public, in DJ turns.
create function pg_temp.here(person uuid) returns void
language plpgsql as $$
begin
  perform pg_temp.act_as('authenticated', person);
  perform public.mark_here('5e100000-0000-4000-8000-000000000001', ('5e900000-0000-4000-8000-' || right(person::text, 12))::uuid, pg_temp.sid('dj'), null, true);
end $$;


-- The session's broadcasts of `event` about `person` so far.
create function pg_temp.sent(event text, person uuid) returns int
language sql security definer as $$
  select count(*)::int from realtime.messages m
  where m.topic = 'session:5e100000-0000-4000-8000-000000000001' and m.event = sent.event and m.payload ->> 'user_id' = person::text
$$;

create function pg_temp.on_waitlist(person uuid) returns boolean
language sql security definer as $$
  select exists (select 1 from jsonb_array_elements((pg_temp.row_of('dj')).dj_waitlist) e where e ->> 'user_id' = person::text)
$$;

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select null::void from (select public.set_session_rules('5e100000-0000-4000-8000-000000000001', 'dj_turns', 300, 0.5)) x;
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select pg_temp.keep('dj', public.start_listening_session('5e100000-0000-4000-8000-000000000001', '5e200000-0000-4000-8000-000000000001', 3));
select pg_temp.here('5e000000-0000-4000-8000-00000000000b');
select pg_temp.here('5e000000-0000-4000-8000-00000000000c');
select pg_temp.here('5e000000-0000-4000-8000-00000000000d');
-- h takes the first turn, so the others' joins wait in the list.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
select null::void from (select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002')) x;

-- ---------------------------------------------------------------------------------------------
-- Ready marks
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.burst('5e000000-0000-4000-8000-00000000000d', 70,
  $$select public.mark_session_ready(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001', %s)$$), 60,
  'a member''s page that says it is ready at a new position over and over is let through 60 times in a minute');
select is(pg_temp.sent('ready', '5e000000-0000-4000-8000-00000000000d'), 60, '…and the session heard exactly those 60, not the refused one');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.mark_session_ready(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001', 100) $$,
  'PT429', null, 'the next mark that is news is refused with PT429 (HTTP 429)');
select throws_matching($$ select public.mark_session_ready(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001', 100) $$,
  '^Your player said it was ready very often — try again in [0-9]+ seconds?$', '…in words, with the wait');
select lives_ok($$ select public.mark_session_ready(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001', 60.2) $$,
  'a mark that is not news (within half a second of the last) is still recorded');
select is((select position_seconds from public.session_readiness
           where session_id = pg_temp.sid('dj') and user_id = '5e000000-0000-4000-8000-00000000000d'
             and post_id = '5e200000-0000-4000-8000-000000000001'), 60.2::double precision, '…as the member''s latest');
select is(pg_temp.sent('ready', '5e000000-0000-4000-8000-00000000000d'), 60, '…and sends nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select public.mark_session_ready(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001', 5) $$,
  'someone else''s mark goes through: the limit is each person''s own');
select is(pg_temp.sent('ready', '5e000000-0000-4000-8000-00000000000b'), 1, '…and is heard');

-- ---------------------------------------------------------------------------------------------
-- DJ waitlist changes
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.burst('5e000000-0000-4000-8000-00000000000d', 40,
  $$select case when %s %% 2 = 1 then (public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001')).id
                else (public.leave_dj_waitlist(pg_temp.sid('dj'))).id end$$), 20,
  'a member joining and leaving the waitlist in a loop is let through 20 changes in a minute');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001') $$,
  'PT429', null, 'the next change is refused with PT429');
select ok(not pg_temp.on_waitlist('5e000000-0000-4000-8000-00000000000d'), 'the refused join changed nothing: the member is not in the list');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select lives_ok($$ select public.join_dj_waitlist(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000002') $$,
  'another member joins: one person''s limit holds back nobody else');
select is(pg_temp.burst('5e000000-0000-4000-8000-00000000000b', 30,
  $$select public.pick_dj_post(pg_temp.sid('dj'), case when %s %% 2 = 1 then '5e200000-0000-4000-8000-000000000001'::uuid else '5e200000-0000-4000-8000-000000000002'::uuid end)$$), 19,
  'changing one''s pick counts as a change too: after joining, 19 more in the minute');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000b');
select throws_matching($$ select public.pick_dj_post(pg_temp.sid('dj'), '5e200000-0000-4000-8000-000000000001') $$,
  '^You''re changing the waitlist quickly — try again in [0-9]+ seconds?$', '…then the refusal says so, with the wait');

select * from finish();
rollback;
