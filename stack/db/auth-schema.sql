-- Supabase Auth's tables added after the stack's base schema was first written, as GoTrue's own
-- migrations define them (the version of each is in the comment before it). Idempotent: applied to
-- a new cluster after db/base-schema.sql, and once to a cluster an older stack created; each
-- version is recorded in auth.schema_migrations as GoTrue records its migrations.

-- 20250731150234_add_oauth_clients_table, 20250901200500_add_oauth_client_type,
-- 20250903112500_remove_oauth_client_id_column, 20260121000000_add_token_endpoint_auth_method
do $$ begin
  create type auth.oauth_registration_type as enum ('dynamic', 'manual');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type auth.oauth_client_type as enum ('public', 'confidential');
exception when duplicate_object then null;
end $$;
create table if not exists auth.oauth_clients (
  id uuid not null,
  client_secret_hash text null,
  registration_type auth.oauth_registration_type not null,
  redirect_uris text not null,
  grant_types text not null,
  client_name text null,
  client_uri text null,
  logo_uri text null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz null,
  client_type auth.oauth_client_type not null default 'confidential',
  token_endpoint_auth_method text not null check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'none')),
  constraint oauth_clients_pkey primary key (id),
  constraint oauth_clients_client_name_length check (char_length(client_name) <= 1024),
  constraint oauth_clients_client_uri_length check (char_length(client_uri) <= 2048),
  constraint oauth_clients_logo_uri_length check (char_length(logo_uri) <= 2048)
);
create index if not exists oauth_clients_deleted_at_idx on auth.oauth_clients (deleted_at);

-- 20250925093508_add_last_webauthn_challenge_data
alter table auth.mfa_factors add column if not exists last_webauthn_challenge_data jsonb;
comment on column auth.mfa_factors.last_webauthn_challenge_data is 'Stores the latest WebAuthn challenge data including attestation/assertion for customer verification';

-- 20260302000000_add_passkeys
create table if not exists auth.webauthn_credentials (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  credential_id bytea not null,
  public_key bytea not null,
  attestation_type text not null default '',
  aaguid uuid,
  sign_count bigint not null default 0,
  transports jsonb not null default '[]'::jsonb,
  backup_eligible boolean not null default false,
  backed_up boolean not null default false,
  friendly_name text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz,
  constraint webauthn_credentials_pkey primary key (id)
);
create unique index if not exists webauthn_credentials_credential_id_key on auth.webauthn_credentials (credential_id);
create index if not exists webauthn_credentials_user_id_idx on auth.webauthn_credentials (user_id);
create table if not exists auth.webauthn_challenges (
  id uuid not null default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  challenge_type text not null check (challenge_type in ('signup', 'registration', 'authentication')),
  session_data jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  constraint webauthn_challenges_pkey primary key (id)
);
create index if not exists webauthn_challenges_user_id_idx on auth.webauthn_challenges (user_id);
create index if not exists webauthn_challenges_expires_at_idx on auth.webauthn_challenges (expires_at);

-- As the base schema treats every auth table: RLS on (no policies), Auth's roles own the rows.
alter table auth.oauth_clients enable row level security;
alter table auth.webauthn_credentials enable row level security;
alter table auth.webauthn_challenges enable row level security;
grant all on auth.oauth_clients, auth.webauthn_credentials, auth.webauthn_challenges to supabase_auth_admin, postgres, dashboard_user;

insert into auth.schema_migrations (version)
values ('20250731150234'), ('20250901200500'), ('20250903112500'), ('20250925093508'), ('20260121000000'), ('20260302000000')
on conflict do nothing;
