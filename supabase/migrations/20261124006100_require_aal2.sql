-- Two-factor sign-in, enforced by Postgres: once a user has a verified factor, a session that has
-- not reached aal2 (signed in with a password but not yet asked for the code) cannot change what
-- the account owns or controls. Supabase's "enforce MFA for users who have enrolled" pattern:
-- restrictive policies, ANDed with the permissive ones, on every write that matters.

-- Whether the caller has a verified factor. SECURITY DEFINER: the caller cannot read auth.mfa_factors.
create function private.has_verified_factor()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.mfa_factors f
    where f.user_id = (select auth.uid()) and f.status = 'verified'
  );
$$;

revoke all on function private.has_verified_factor() from public;
grant execute on function private.has_verified_factor() to authenticated, service_role;

comment on function private.has_verified_factor() is 'True when the calling user has a verified MFA factor (the aal2 policies ask it once per statement).';

create policy "A user with a verified factor updates their profile only at aal2"
  on public.profiles as restrictive for update
  to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()))
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));

create policy "A user with a verified factor unlinks wallets only at aal2"
  on public.wallets as restrictive for delete
  to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));

create policy "A user with a verified factor sets a gate only at aal2"
  on public.room_gates as restrictive for insert
  to authenticated
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));

create policy "A user with a verified factor changes a gate only at aal2"
  on public.room_gates as restrictive for update
  to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()))
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));

create policy "A user with a verified factor removes a gate only at aal2"
  on public.room_gates as restrictive for delete
  to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));

create policy "A user with a verified factor changes roles only at aal2"
  on public.memberships as restrictive for update
  to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()))
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));
