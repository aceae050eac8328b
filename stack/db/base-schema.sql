-- What a Supabase project's database holds before the project's own migrations run:
-- roles and their grants, the auth / storage / realtime / extensions schemas, GoTrue's tables,
-- the auth.* and storage.* helper functions, and the supabase_realtime publication.
-- Written for the stack from Supabase's documented behaviour; applied once to a new cluster
-- by `npm run stack -- start|reset`, connected as the cluster's bootstrap superuser (supabase_admin).

set client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Roles
-- ---------------------------------------------------------------------------------------------
-- `postgres` is a superuser here: Supabase's own Postgres relies on the supautils extension to let
-- a non-superuser `postgres` create extensions, event triggers and publications; the stack has no
-- supautils, so it grants superuser instead. RLS still applies to anon/authenticated exactly as
-- on Supabase, because requests run under those roles.
create role postgres with login superuser createdb createrole replication bypassrls password 'postgres';

create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator with login noinherit password 'postgres';
grant anon, authenticated, service_role to authenticator;

create role supabase_auth_admin with login noinherit createrole password 'postgres';
create role supabase_storage_admin with login noinherit createrole password 'postgres';
create role supabase_realtime_admin with nologin noinherit;
create role supabase_replication_admin with login replication password 'postgres';
create role supabase_read_only_user with login bypassrls password 'postgres';
create role dashboard_user with nologin createdb createrole replication;
create role pgbouncer with login password 'postgres';

grant anon, authenticated, service_role to postgres;
grant supabase_auth_admin, supabase_storage_admin to postgres;
grant authenticator to supabase_storage_admin;
grant pg_read_all_data to supabase_read_only_user;

alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout = '8s';
alter role supabase_auth_admin set search_path = auth;
alter role supabase_storage_admin set search_path = storage;

-- ---------------------------------------------------------------------------------------------
-- Schemas and default privileges
-- ---------------------------------------------------------------------------------------------
alter schema public owner to postgres;
grant usage on schema public to postgres, anon, authenticated, service_role;
grant all on schema public to postgres, anon, authenticated, service_role;

alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to postgres, anon, authenticated, service_role;

create schema extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
alter default privileges in schema extensions grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema extensions grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema extensions grant all on sequences to postgres, anon, authenticated, service_role;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists pg_stat_statements with schema extensions;

alter database postgres set search_path = "$user", public, extensions;

create schema graphql_public;
grant usage on schema graphql_public to postgres, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- auth: GoTrue's schema
-- ---------------------------------------------------------------------------------------------
create schema auth authorization supabase_auth_admin;
grant usage on schema auth to postgres, anon, authenticated, service_role, dashboard_user;
set role supabase_auth_admin;

create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
create type auth.factor_status as enum ('unverified', 'verified');
create type auth.code_challenge_method as enum ('s256', 'plain');
create type auth.one_time_token_type as enum (
  'confirmation_token', 'reauthentication_token', 'recovery_token',
  'email_change_token_new', 'email_change_token_current', 'phone_change_token'
);

create table auth.schema_migrations (version varchar(255) primary key);

create table auth.instances (
  id uuid primary key,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz
);

create table auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
comment on column auth.users.is_sso_user is 'Auth: Set this column to true when the account comes from SSO. These accounts can have duplicate emails.';
create unique index users_email_partial_key on auth.users (email) where (is_sso_user = false);
create index users_instance_id_idx on auth.users (instance_id);
create index users_instance_id_email_idx on auth.users (instance_id, lower(email::text));
create index users_is_anonymous_idx on auth.users (is_anonymous);
create unique index confirmation_token_idx on auth.users (confirmation_token) where confirmation_token !~ '^[0-9 ]*$';
create unique index recovery_token_idx on auth.users (recovery_token) where recovery_token !~ '^[0-9 ]*$';
create unique index email_change_token_current_idx on auth.users (email_change_token_current) where email_change_token_current !~ '^[0-9 ]*$';
create unique index email_change_token_new_idx on auth.users (email_change_token_new) where email_change_token_new !~ '^[0-9 ]*$';
create unique index reauthentication_token_idx on auth.users (reauthentication_token) where reauthentication_token !~ '^[0-9 ]*$';

create table auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index identities_user_id_idx on auth.identities (user_id);
create index identities_email_idx on auth.identities (email text_pattern_ops);

create table auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create index sessions_user_id_idx on auth.sessions (user_id);
create index user_id_created_at_idx on auth.sessions (user_id, created_at);
create index sessions_not_after_idx on auth.sessions (not_after desc);

create table auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index refresh_tokens_instance_id_idx on auth.refresh_tokens (instance_id);
create index refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
create index refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

create table auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text,
  last_challenged_at timestamptz unique,
  web_authn_credential jsonb,
  web_authn_aaguid uuid
);
create index factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create index mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';

create table auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text,
  web_authn_session_data jsonb
);
create index mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

create table auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

create table auth.flow_state (
  id uuid primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method auth.code_challenge_method not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index idx_auth_code on auth.flow_state (auth_code);
create index idx_user_id_auth_method on auth.flow_state (user_id, authentication_method);
create index flow_state_created_at_idx on auth.flow_state (created_at desc);

create table auth.one_time_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp not null default now(),
  updated_at timestamp not null default now()
);
create unique index one_time_tokens_user_id_token_type_key on auth.one_time_tokens (user_id, token_type);
create index one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create index one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);

create table auth.audit_log_entries (
  instance_id uuid,
  id uuid primary key,
  payload json,
  created_at timestamptz,
  ip_address varchar(64) not null default ''
);
create index audit_logs_instance_id_idx on auth.audit_log_entries (instance_id);

-- Row-level security is on for every auth table, as on Supabase; only supabase_auth_admin
-- (the owner) and postgres use them.
alter table auth.users enable row level security;
alter table auth.identities enable row level security;
alter table auth.sessions enable row level security;
alter table auth.refresh_tokens enable row level security;
alter table auth.mfa_factors enable row level security;
alter table auth.mfa_challenges enable row level security;
alter table auth.mfa_amr_claims enable row level security;
alter table auth.flow_state enable row level security;
alter table auth.one_time_tokens enable row level security;
alter table auth.audit_log_entries enable row level security;
alter table auth.instances enable row level security;
alter table auth.schema_migrations enable row level security;

-- The request's JWT, as PostgREST, Storage and Realtime set it in `request.jwt.claims`
-- (and, for older callers, `request.jwt.claim.<name>`).
create function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';

create function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';

create function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';

create function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

reset role;
grant all on all tables in schema auth to supabase_auth_admin, postgres, dashboard_user;
grant all on all sequences in schema auth to supabase_auth_admin, postgres, dashboard_user;
grant execute on all functions in schema auth to postgres, anon, authenticated, service_role, dashboard_user;

-- ---------------------------------------------------------------------------------------------
-- storage: Supabase Storage's schema
-- ---------------------------------------------------------------------------------------------
create schema storage authorization supabase_storage_admin;
grant usage on schema storage to postgres, anon, authenticated, service_role;
set role supabase_storage_admin;

create type storage.buckettype as enum ('STANDARD', 'ANALYTICS');

create table storage.migrations (
  id integer primary key,
  name varchar(100) unique not null,
  hash varchar(40) not null,
  executed_at timestamp default current_timestamp
);

create table storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  type storage.buckettype not null default 'STANDARD'
);
comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';
create unique index bname on storage.buckets using btree (name);

create table storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';
create unique index bucketid_objname on storage.objects using btree (bucket_id, name);
create index name_prefix_search on storage.objects using btree (name text_pattern_ops);
create index idx_objects_bucket_id_name on storage.objects (bucket_id, name collate "C");

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
alter table storage.migrations enable row level security;

create function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

create function storage.get_size_by_bucket() returns table (size bigint, bucket_id text)
language plpgsql stable
as $$
begin
  return query
    select sum((metadata ->> 'size')::bigint)::bigint as size, obj.bucket_id
    from storage.objects as obj
    group by obj.bucket_id;
end
$$;

-- The listing the Storage API serves for `list()`: the direct children of a prefix — folders
-- (with null id) and files — filtered by search, sorted and paged.
create function storage.search(
  prefix text,
  bucketname text,
  limits int default 100,
  levels int default 1,
  offsets int default 0,
  search text default '',
  sortcolumn text default 'name',
  sortorder text default 'asc'
) returns table (
  name text,
  id uuid,
  updated_at timestamptz,
  created_at timestamptz,
  last_accessed_at timestamptz,
  metadata jsonb
)
language plpgsql stable
as $$
declare
  v_order text;
  v_sort text;
begin
  v_order := case when lower(sortorder) = 'desc' then 'desc' else 'asc' end;
  v_sort := case lower(sortcolumn)
    when 'updated_at' then 'updated_at'
    when 'created_at' then 'created_at'
    when 'last_accessed_at' then 'last_accessed_at'
    else 'name'
  end;
  return query execute format(
    $q$
      with children as (
        select
          split_part(substr(o.name, char_length($1) + 1), '/', 1) as child,
          position('/' in substr(o.name, char_length($1) + 1)) > 0 as is_folder,
          o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata
        from storage.objects o
        where o.bucket_id = $2
          and o.name like $1 || '%%'
      ),
      listed as (
        select distinct on (child)
          child as name,
          case when is_folder then null else c.id end as id,
          case when is_folder then null else c.updated_at end as updated_at,
          case when is_folder then null else c.created_at end as created_at,
          case when is_folder then null else c.last_accessed_at end as last_accessed_at,
          case when is_folder then null else c.metadata end as metadata
        from children c
        where child <> '' and child ilike $3 || '%%'
        order by child, is_folder desc
      )
      select * from listed
      order by (id is not null), %I %s nulls last, name
      limit $4 offset $5
    $q$, v_sort, v_order)
  using prefix, bucketname, search, limits, offsets;
end
$$;

reset role;
grant all on storage.buckets to anon, authenticated, service_role, postgres;
grant all on storage.objects to anon, authenticated, service_role, postgres;
grant all on storage.migrations to postgres;
grant execute on all functions in schema storage to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage grant all on tables to postgres, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- realtime: Supabase Realtime's schema (broadcast/presence authorization) and publication
-- ---------------------------------------------------------------------------------------------
create schema realtime;
grant usage on schema realtime to postgres, anon, authenticated, service_role;

create table realtime.schema_migrations (version bigint primary key, inserted_at timestamp(0));

-- realtime.messages, Broadcast from the database and the messages publication: db/realtime-schema.sql.

-- The topic of the channel a Realtime authorization check runs for.
create function realtime.topic() returns text
language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;
grant execute on function realtime.topic() to postgres, anon, authenticated, service_role;

create publication supabase_realtime;

-- ---------------------------------------------------------------------------------------------
-- Schema-cache reloads: like Supabase's images, DDL anywhere but in temporary schemas tells the
-- REST service to reload its schema cache (NOTIFY pgrst), so a migration applied while the API
-- runs is visible at once.
-- ---------------------------------------------------------------------------------------------
create function extensions.notify_schema_change_on_ddl() returns event_trigger
language plpgsql
set search_path = ''
as $$
declare
  command record;
begin
  for command in select schema_name from pg_catalog.pg_event_trigger_ddl_commands() loop
    if command.schema_name is null or command.schema_name not like 'pg\_temp%' then
      perform pg_catalog.pg_notify('pgrst', 'reload schema');
      return;
    end if;
  end loop;
end;
$$;

create function extensions.notify_schema_change_on_drop() returns event_trigger
language plpgsql
set search_path = ''
as $$
declare
  dropped record;
begin
  for dropped in select schema_name, is_temporary from pg_catalog.pg_event_trigger_dropped_objects() loop
    if not dropped.is_temporary then
      perform pg_catalog.pg_notify('pgrst', 'reload schema');
      return;
    end if;
  end loop;
end;
$$;

create event trigger notify_schema_change_on_ddl on ddl_command_end execute function extensions.notify_schema_change_on_ddl();
create event trigger notify_schema_change_on_drop on sql_drop execute function extensions.notify_schema_change_on_drop();
