-- A comment's BEFORE INSERT triggers run in name order: the timeout's refusal comes before slow
-- mode's, so a timed-out member who commented a moment ago reads that they are timed out (until
-- when), not a slow-mode wait that would end before they may comment again.
alter trigger moments_slow_mode on public.moments rename to moments_unhurried_by_slow_mode;
