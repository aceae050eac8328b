-- Passkeys on /account, read through the database so a page view asks Auth nothing (its access
-- token is verified locally; e2e/auth-requests.spec.ts holds /account to that).
--
-- account_passkeys(): the caller's own passkeys as Auth's GET /passkeys lists them (id, name, added,
-- last used) — never the credential or its public key. It reads Auth's table, so it runs as its
-- owner, and reads only the rows of auth.uid().
create function public.account_passkeys()
returns table (id uuid, friendly_name text, created_at timestamptz, last_used_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.friendly_name, c.created_at, c.last_used_at
    from auth.webauthn_credentials c
   where c.user_id = (select auth.uid())
   order by c.created_at, c.id;
$$;

comment on function public.account_passkeys() is
  'The caller''s own passkeys (id, name, added, last used), oldest first; nothing signed out.';

revoke all on function public.account_passkeys() from public, anon;
grant execute on function public.account_passkeys() to authenticated, service_role;
