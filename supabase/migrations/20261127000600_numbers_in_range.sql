-- Numbers a member writes stay in the range their use has (as the forms hold them):
-- a gate's token id and minimum balance are uint256 values on chain, and a queue entry's place
-- (sort_key) is a finite number, or every entry added after it would sort as NaN.

alter table public.room_gates add constraint room_gates_numbers_in_uint256 check (
  (case when token_id ~ '^[0-9]{1,78}$' then token_id::numeric <= 115792089237316195423570985008687907853269984665640564039457584007913129639935 else true end)
  and (case when min_balance ~ '^[0-9]{1,78}$' then min_balance::numeric <= 115792089237316195423570985008687907853269984665640564039457584007913129639935 else true end)
) not valid;
comment on constraint room_gates_numbers_in_uint256 on public.room_gates is 'Token ids and balances are at most 2^256 - 1';

alter table public.session_queue add constraint session_queue_sort_key_finite
  check (sort_key not in ('NaN'::double precision, 'Infinity'::double precision, '-Infinity'::double precision)) not valid;
