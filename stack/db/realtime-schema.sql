-- Realtime's own part of the database, as Supabase Realtime's tenant migrations leave it: the
-- day-partitioned realtime.messages table, Broadcast from the database (realtime.send and
-- realtime.broadcast_changes) and the publication the Realtime service streams messages from.
-- Written for the stack from Supabase's documented behaviour. Idempotent: `start` applies it to a
-- new cluster after the base schema, and to an older cluster (whose realtime.messages was a plain
-- table, with the project's policies on it) once, recording its version in realtime.schema_migrations.

set client_min_messages = warning;

-- An older stack's realtime.messages was a plain table: it makes way for the partitioned one, which
-- takes over its policies (below).
do $$
begin
  if (select relkind from pg_class where oid = to_regclass('realtime.messages')) = 'r' then
    alter table realtime.messages rename to messages_unpartitioned;
    alter table realtime.messages_unpartitioned rename constraint messages_pkey to messages_unpartitioned_pkey;
  end if;
end;
$$;

-- One partition per UTC day (messages_YYYY_MM_DD). The Realtime service creates the coming days'
-- partitions and drops those older than three days; there is no default partition, so an old day
-- is detached concurrently (never locking out writers) before it is dropped.
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  id uuid not null default gen_random_uuid(),
  constraint messages_pkey primary key (id, inserted_at)
) partition by range (inserted_at);

create index if not exists messages_inserted_at_topic_index
  on only realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;

do $$
declare
  policy record;
begin
  if to_regclass('realtime.messages_unpartitioned') is null then
    return;
  end if;
  for policy in
    select p.polname, p.polpermissive, p.polcmd,
           pg_get_expr(p.polqual, p.polrelid) as using_expr,
           pg_get_expr(p.polwithcheck, p.polrelid) as check_expr,
           case when p.polroles = '{0}' then 'public'
                else (select string_agg(quote_ident(r.rolname), ', ') from pg_roles r where r.oid = any (p.polroles)) end as roles
    from pg_policy p
    where p.polrelid = 'realtime.messages_unpartitioned'::regclass
  loop
    execute format('create policy %I on realtime.messages as %s for %s to %s%s%s',
      policy.polname,
      case when policy.polpermissive then 'permissive' else 'restrictive' end,
      case policy.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update' when 'd' then 'delete' else 'all' end,
      policy.roles,
      coalesce(' using (' || policy.using_expr || ')', ''),
      coalesce(' with check (' || policy.check_expr || ')', ''));
  end loop;
  drop table realtime.messages_unpartitioned;
end;
$$;

alter table realtime.messages owner to supabase_realtime_admin;
alter table realtime.messages enable row level security;
grant select, insert, update on realtime.messages to postgres, anon, authenticated, service_role;
grant delete, truncate, references, trigger on realtime.messages to postgres;
grant all on realtime.messages to supabase_realtime_admin;

-- Broadcast from the database: a row of realtime.messages, written in the caller's transaction
-- (so a rollback sends nothing) and as the caller (so the policies on realtime.messages apply;
-- realtime.topic() is the message's topic while they run). The payload gets the message's id
-- unless it has one. Errors become a warning, as in Supabase: a failed send never fails the write.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;
    execute format('set local realtime.topic to %L', topic);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

-- For row triggers: sends {id, schema, table, operation, record, old_record} (record null on
-- DELETE, old_record null on INSERT) as a private message.
create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW'
)
returns void
language plpgsql
as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation, 'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception
  when others then
    raise exception 'Failed to process the row: %', sqlerrm;
end;
$$;

alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text) owner to supabase_realtime_admin;
grant all on function realtime.send(jsonb, text, text, boolean) to postgres, supabase_realtime_admin;
grant all on function realtime.broadcast_changes(text, text, text, text, text, record, record, text) to postgres, supabase_realtime_admin;

-- What the Realtime service streams Broadcast from the database from (a partition's rows are
-- published as that partition's, whose name starts with `messages`).
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime_messages_publication') then
    create publication supabase_realtime_messages_publication for table realtime.messages;
  elsif not exists (select 1 from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
                    where p.pubname = 'supabase_realtime_messages_publication' and r.prrelid = 'realtime.messages'::regclass) then
    alter publication supabase_realtime_messages_publication add table realtime.messages;
  end if;
end;
$$;
