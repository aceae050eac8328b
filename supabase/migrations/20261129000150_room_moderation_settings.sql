-- A room's two moderation settings, read by everyone who can see the room (the composer counts down
-- slow mode) and changed only through the functions that log the change (not by a column grant):
-- slow_mode_seconds, the least gap between one person's comments (0: off; owner and moderators are
-- exempt), and report_threshold, how many distinct members' reports hide an item until reviewed.
alter table public.rooms
  add column slow_mode_seconds integer not null default 0,
  add column report_threshold integer not null default 3,
  add constraint rooms_slow_mode_seconds_range check (slow_mode_seconds between 0 and 3600),
  add constraint rooms_report_threshold_range check (report_threshold between 1 and 100);

comment on column public.rooms.slow_mode_seconds is 'Least seconds between one person''s comments in the room (0: off); the owner and moderators are exempt.';
comment on column public.rooms.report_threshold is 'Distinct members whose reports hide a post or comment until a moderator reviews it.';
