-- private.recovery_codes said "no API role" by having no policy at all, which the security advisor
-- (rls_enabled_no_policy) cannot tell from a forgotten one. The rule, written down: no row is any
-- API role's to read or write. Only the recovery functions (security definer) reach the table.
create policy "No API role reads or writes recovery codes"
  on private.recovery_codes
  for all
  to anon, authenticated, service_role
  using (false)
  with check (false);
