-- Reports count against a limit of their own, as comments and reactions do: 20 an hour per person,
-- whoever they are (each report reaches the room's moderators, so a flood of them is a flood of work).
create or replace function private.rate_limits()
returns table (action text, max_count integer, per interval, refusal text)
language sql
immutable
set search_path = ''
as $$
  values
    ('rooms', 10, interval '1 day', 'You''ve created 10 rooms today — try again in {wait}'),
    ('posts', 20, interval '1 hour', 'You''re posting quickly in this room — try again in {wait}'),
    ('comments', 20, interval '1 minute', 'You''re commenting quickly — try again in {wait}'),
    ('reactions', 60, interval '1 minute', 'You''re reacting quickly — try again in {wait}'),
    ('wallet links', 30, interval '10 minutes', 'Too many attempts to link a wallet — try again in {wait}'),
    ('recovery codes', 5, interval '15 minutes', 'Too many recovery codes tried — try again in {wait}'),
    ('reports', 20, interval '1 hour', 'You''ve sent a lot of reports — try again in {wait}')
$$;

create or replace function private.take_report_rate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- The server's own writes (no signed-in person) are not limited.
  if (select auth.uid()) is not null then
    perform private.take_rate('reports', new.reporter_id);
  end if;
  return new;
end;
$$;

revoke all on function private.take_report_rate() from public, anon, authenticated;

create trigger reports_rate_limited
  before insert on public.reports
  for each row execute function private.take_report_rate();
