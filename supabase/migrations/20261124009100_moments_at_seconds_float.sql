-- A page of moments after a cursor (`at_seconds >= X and (at_seconds > X or id > Y)`) must start
-- its index scan at the cursor. Under RLS, Postgres uses a caller's filter in the index scan only
-- when its operators are leakproof: numeric's comparisons are not, double precision's are. The
-- range check and the duration rule stay as they were.
drop trigger moments_from_post on public.moments;

alter table public.moments alter column at_seconds type double precision;

create trigger moments_from_post
  before insert or update of post_id, at_seconds on public.moments
  for each row execute function private.moment_from_post();
