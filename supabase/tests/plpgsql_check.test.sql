-- Static checks of every PL/pgSQL function the migrations define (public and private schemas):
-- plpgsql_check finds references to missing columns, type mismatches and dead code that would
-- otherwise only fail when the function first runs. Trigger functions are checked against a
-- table they are attached to.
begin;
create extension if not exists pgtap with schema extensions;
create extension if not exists plpgsql_check with schema extensions;

create temporary table checked_function on commit drop as
select p.oid as fn, n.nspname || '.' || p.proname as name,
       (select t.tgrelid from pg_trigger t where t.tgfoid = p.oid limit 1) as rel,
       -- A statement trigger's transition tables, by the names it gives them.
       (select t.tgoldtable from pg_trigger t where t.tgfoid = p.oid limit 1) as old_table,
       (select t.tgnewtable from pg_trigger t where t.tgfoid = p.oid limit 1) as new_table,
       p.prorettype = 'trigger'::regtype as is_trigger
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_language l on l.oid = p.prolang
where n.nspname in ('public', 'private') and l.lanname = 'plpgsql';

select plan((select count(*)::int from checked_function) + 1);

select ok((select count(*) from checked_function) >= 3, 'the migrations define PL/pgSQL functions to check');

select is(
  (select string_agg(format('%s: %s', cf.level, cf.message), '; ')
   from extensions.plpgsql_check_function_tb(c.fn, coalesce(c.rel, 0), oldtable => c.old_table, newtable => c.new_table) cf
   where cf.level = 'error'),
  null,
  format('%s has no plpgsql_check errors', c.name))
from checked_function c
where not c.is_trigger or c.rel is not null
union all
select fail(format('%s is a trigger function attached to no table', c.name))
from checked_function c
where c.is_trigger and c.rel is null;

select * from finish();
rollback;
