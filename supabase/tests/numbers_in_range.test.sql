-- Numbers a member writes stay in the range their use has (20261127000600_numbers_in_range.sql):
-- a gate's token id and minimum balance are uint256 values; a queue entry's place is finite.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(6);

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000a');
select throws_like($$ update public.room_gates set min_balance = repeat('9', 78) where room_id = '5e100000-0000-4000-8000-000000000002' $$,
  '%room_gates_numbers_in_uint256%', 'a minimum balance above 2^256 - 1 is refused');
select lives_ok($$ update public.room_gates set min_balance = '115792089237316195423570985008687907853269984665640564039457584007913129639935' where room_id = '5e100000-0000-4000-8000-000000000002' $$,
  'a minimum balance of exactly 2^256 - 1 is kept');
select throws_like($$ update public.room_gates set standard = 'erc1155', token_id = '115792089237316195423570985008687907853269984665640564039457584007913129639936' where room_id = '5e100000-0000-4000-8000-000000000002' $$,
  '%room_gates_numbers_in_uint256%', 'a token id of 2^256 is refused');

select pg_temp.keep('public', public.start_listening_session('5e100000-0000-4000-8000-000000000001'));
insert into public.session_queue (session_id, post_id, added_by) values (pg_temp.sid('public'), '5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000a');
select throws_like($$ update public.session_queue set sort_key = 'NaN' where session_id = pg_temp.sid('public') $$,
  '%session_queue_sort_key_finite%', 'the host cannot give an entry the place NaN');
select throws_like($$ update public.session_queue set sort_key = '-Infinity' where session_id = pg_temp.sid('public') $$,
  '%session_queue_sort_key_finite%', '…nor an infinite one');
select is(pg_temp.touched($$ update public.session_queue set sort_key = 0.5 where session_id = pg_temp.sid('public') $$), 1, 'a finite place is kept');

select * from finish();
rollback;
