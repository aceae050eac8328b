-- Email digests and one-click unsubscribe (20261130001000_email_digests.sql): who is due a digest
-- and what it carries (unread, not held, their email kinds, words only where they may read them);
-- at most one an hour; a claim given back; the tokens (kept as hashes, read by no API role);
-- unsubscribing without a session, once, only for the token's own person; the digest functions
-- refused to anon and signed-in callers.
begin;
create extension if not exists pgtap with schema extensions;
\ir helpers/roles.psql
\ir helpers/session_fixtures.psql
select plan(47);

-- o owner (…a), m moderator (…b), h member (…c), p member (…d), n outsider (…e)
select pg_temp.verify_gated_members();
update auth.users set email_confirmed_at = now() where id::text like '5e000000-%';

create temp table claims (label text primary key, body jsonb);
grant select, insert on claims to anon, authenticated, service_role;
create function pg_temp.claimed(label text) returns jsonb
language sql stable as $$ select c.body from claims c where c.label = claimed.label $$;
create function pg_temp.token(label text, what text default null) returns text
language sql stable as $$
  select case when what is null then pg_temp.claimed(label) -> 'unsubscribe' ->> 'all'
              else pg_temp.claimed(label) -> 'unsubscribe' -> 'kinds' ->> what end
$$;
create function pg_temp.email_kinds(person uuid) returns text[]
language sql security definer as $$ select s.email_kinds from public.notification_settings s where s.user_id = person $$;
create function pg_temp.last_digest(person uuid) returns timestamptz
language sql security definer as $$ select s.last_digest_at from public.notification_settings s where s.user_id = person $$;
create function pg_temp.tokens_of(person uuid) returns int
language sql security definer as $$ select count(*)::int from private.email_unsubscribe_tokens t where t.user_id = person $$;

-- p (…d) wants mentions by email; n (…e) wants replies and mentions.
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
insert into public.notification_settings (user_id, email_kinds) values ('5e000000-0000-4000-8000-00000000000d', '{mention}');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
insert into public.notification_settings (user_id, email_kinds) values ('5e000000-0000-4000-8000-00000000000e', '{reply,mention}');

select pg_temp.act_as_superuser();
-- h (…c) mentions p in the public room, and reacts to a comment of p's (a kind p gets only in the bell).
-- (as the database owner: ids are the database's to give, and these fixtures name theirs)
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-0000000000e1', '5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000d', 5, 'mine');
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-0000000000e2', '5e200000-0000-4000-8000-000000000001', '5e000000-0000-4000-8000-00000000000c', 9, 'listen to this @ls_member <b>&</b>');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.reactions (moment_id, user_id, emoji) values ('5e300000-0000-4000-8000-0000000000e1', '5e000000-0000-4000-8000-00000000000c', '🔥');

-- ---------------------------------------------------------------------------------------------
-- Nobody but the service role asks who is due, claims or releases a digest

select pg_temp.act_as('anon');
select throws_ok($$ select * from public.email_digests_due() $$, '42501', null, 'anon cannot list who is due a digest');
select throws_ok($$ select public.claim_email_digest('5e000000-0000-4000-8000-00000000000d') $$, '42501', null, 'anon cannot claim a digest');
select throws_ok($$ select public.release_email_digest('5e000000-0000-4000-8000-00000000000d', now(), null) $$, '42501', null, 'anon cannot release a digest');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select * from public.email_digests_due('5e000000-0000-4000-8000-00000000000d') $$, '42501', null, 'a signed-in person cannot list their own digest');
select throws_ok($$ select public.claim_email_digest('5e000000-0000-4000-8000-00000000000d') $$, '42501', null, 'a signed-in person cannot claim a digest (and so cannot skip the hourly rule)');
select throws_ok($$ select public.release_email_digest('5e000000-0000-4000-8000-00000000000d', now(), null) $$, '42501', null, 'a signed-in person cannot release a digest');
select throws_ok($$ update public.notification_settings set last_digest_at = null where user_id = '5e000000-0000-4000-8000-00000000000d' $$,
  '42501', null, 'a signed-in person cannot reset their last digest time');

-- ---------------------------------------------------------------------------------------------
-- Who is due, and what the digest says

select pg_temp.act_as('service_role');
select results_eq($$ select user_id, email, total from public.email_digests_due() where user_id in ('5e000000-0000-4000-8000-00000000000d', '5e000000-0000-4000-8000-00000000000e') $$,
  $$ values ('5e000000-0000-4000-8000-00000000000d'::uuid, 'ls-member@example.test'::text, 1) $$,
  'p is due one notification (the mention; the reaction is not an email kind); n, with nothing unread, is not due');
select results_eq($$ select n ->> 'kind', n ->> 'excerpt', n ->> 'actor_username', n ->> 'room_name', n ->> 'post_title', n ->> 'moment_id'
                    from public.email_digests_due('5e000000-0000-4000-8000-00000000000d') d, jsonb_array_elements(d.notifications) n $$,
  $$ values ('mention', 'listen to this @ls_member <b>&</b>', 'ls_host', 'Public', 'p1', '5e300000-0000-4000-8000-0000000000e2') $$,
  'the digest carries who, where and the words for a room the person reads');

insert into claims values ('first', public.claim_email_digest('5e000000-0000-4000-8000-00000000000d'));
select is(pg_temp.claimed('first') ->> 'email', 'ls-member@example.test', 'a claim answers the address');
select is((pg_temp.claimed('first') ->> 'total')::int, 1, '…how many notifications');
select is(jsonb_array_length(pg_temp.claimed('first') -> 'notifications'), 1, '…and them');
select ok(pg_temp.token('first') ~ '^[A-Za-z0-9_-]{43}$', 'a claim issues an unsubscribe token for all email: 43 characters of base64url');
select ok(pg_temp.token('first', 'mention') ~ '^[A-Za-z0-9_-]{43}$', '…and one for each kind in the email');
select isnt(pg_temp.token('first'), pg_temp.token('first', 'mention'), '…each its own');
select ok(pg_temp.claimed('first') -> 'unsubscribe' -> 'kinds' -> 'reaction' is null, '…none for a kind the email does not carry');
select is(pg_temp.last_digest('5e000000-0000-4000-8000-00000000000d'), now(), 'the claim records last_digest_at');

-- The hourly limit
select is(public.claim_email_digest('5e000000-0000-4000-8000-00000000000d'), null, 'a second claim within the hour gets nothing');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000c');
insert into public.moments (post_id, author_id, at_seconds, body) values
  ('5e200000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000c', 3, 'again @ls_member');
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.email_digests_due('5e000000-0000-4000-8000-00000000000d')), 0, 'a new mention within the hour does not make p due');
select is(public.claim_email_digest('5e000000-0000-4000-8000-00000000000d'), null, '…nor can it be claimed');
select pg_temp.act_as_superuser();
-- (one transaction has one now(): the first digest and what it carried are moved an hour back)
update public.notification_settings set last_digest_at = now() - interval '61 minutes' where user_id = '5e000000-0000-4000-8000-00000000000d';
update private.email_unsubscribe_tokens set created_at = now() - interval '61 minutes' where user_id = '5e000000-0000-4000-8000-00000000000d';
update public.notifications set created_at = now() - interval '62 minutes' where moment_id = '5e300000-0000-4000-8000-0000000000e2';
select pg_temp.act_as('service_role');
select results_eq($$ select total from public.email_digests_due('5e000000-0000-4000-8000-00000000000d') $$, $$ values (1) $$,
  'an hour on, p is due again, with only what came since the last digest');

-- Giving a claim back
insert into claims values ('second', public.claim_email_digest('5e000000-0000-4000-8000-00000000000d'));
select is(public.release_email_digest('5e000000-0000-4000-8000-00000000000d', (pg_temp.claimed('second') ->> 'claimed_at')::timestamptz,
  (pg_temp.claimed('second') ->> 'previous_digest_at')::timestamptz), true, 'a claim that could not be sent is released');
select is(pg_temp.last_digest('5e000000-0000-4000-8000-00000000000d'), now() - interval '61 minutes', '…last_digest_at is as it was');
select is(pg_temp.tokens_of('5e000000-0000-4000-8000-00000000000d'), 2, '…and the unsent email''s tokens are gone (the first email''s two stay)');
select results_eq($$ select total from public.email_digests_due('5e000000-0000-4000-8000-00000000000d') $$, $$ values (1) $$, '…so p is due again');

-- Read, held, and old notifications are not emailed
select pg_temp.act_as_superuser();
update public.notifications set read_at = now() where user_id = '5e000000-0000-4000-8000-00000000000d' and kind = 'mention';
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.email_digests_due('5e000000-0000-4000-8000-00000000000d')), 0, 'read notifications are not emailed');
select pg_temp.act_as_superuser();
update public.notifications set read_at = null, held = true where user_id = '5e000000-0000-4000-8000-00000000000d' and kind = 'mention';
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.email_digests_due('5e000000-0000-4000-8000-00000000000d')), 0, 'held-back notifications are not emailed');
select pg_temp.act_as_superuser();
update public.notifications set held = false, created_at = now() - interval '2 days' where user_id = '5e000000-0000-4000-8000-00000000000d' and kind = 'mention';
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.email_digests_due('5e000000-0000-4000-8000-00000000000d')), 0, 'notifications over a day old are not emailed');

-- ---------------------------------------------------------------------------------------------
-- A lapsed member's digest says that something happened, not what

select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
update public.notification_settings set email_kinds = '{reply}' where user_id = '5e000000-0000-4000-8000-00000000000e';
select pg_temp.act_as_superuser();
insert into public.memberships (room_id, user_id, role, verified_at) values ('5e100000-0000-4000-8000-000000000002', '5e000000-0000-4000-8000-00000000000e', 'member', now());
insert into public.moments (id, post_id, author_id, at_seconds, body) values
  ('5e300000-0000-4000-8000-0000000000e3', '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000e', 12, 'first!');
select pg_temp.act_as_superuser();
update public.memberships set verified_at = now() - interval '1 day'
  where room_id = '5e100000-0000-4000-8000-000000000002' and user_id = '5e000000-0000-4000-8000-00000000000e';
insert into public.moments (id, post_id, author_id, body, parent_id) values
  ('5e300000-0000-4000-8000-0000000000e4', '5e200000-0000-4000-8000-000000000004', '5e000000-0000-4000-8000-00000000000c', 'members-only secret', '5e300000-0000-4000-8000-0000000000e3');
select pg_temp.act_as('service_role');
select results_eq($$ select n ->> 'kind', n ->> 'excerpt', n ->> 'actor_username', n ->> 'actor_display_name', n ->> 'post_title', n ->> 'room_name'
                    from public.email_digests_due('5e000000-0000-4000-8000-00000000000e') d, jsonb_array_elements(d.notifications) n $$,
  $$ values ('reply', null::text, null::text, null::text, null::text, 'Gated') $$,
  'a lapsed member''s digest names the room and the kind, with no words, title or person from it');

-- A hidden comment loses its words in the digest too (p is a current member of the gated room).
select pg_temp.act_as_superuser();
update public.moments set hidden_at = now() where id = '5e300000-0000-4000-8000-0000000000e4';
select is((select count(*)::int from private.email_digest_items('5e000000-0000-4000-8000-00000000000e', '{reply}', null) i where i.item ->> 'excerpt' is not null), 0,
  'a hidden comment''s words are not emailed');

-- An account with no confirmed address is not due.
update auth.users set email_confirmed_at = null where id = '5e000000-0000-4000-8000-00000000000e';
select pg_temp.act_as('service_role');
select is((select count(*)::int from public.email_digests_due('5e000000-0000-4000-8000-00000000000e')), 0, 'nobody is emailed at an unconfirmed address');
select pg_temp.act_as_superuser();
update auth.users set email_confirmed_at = now() where id = '5e000000-0000-4000-8000-00000000000e';

-- ---------------------------------------------------------------------------------------------
-- The tokens

select pg_temp.act_as_superuser();
select is((select count(*)::int from private.email_unsubscribe_tokens t where t.token_hash = sha256(convert_to(pg_temp.token('first'), 'UTF8'))), 1,
  'a token is stored as its SHA-256…');
select is((select count(*)::int from private.email_unsubscribe_tokens t where t.token_hash = convert_to(pg_temp.token('first'), 'UTF8')), 0, '…never as itself');
select pg_temp.act_as('anon');
select throws_ok($$ select count(*) from private.email_unsubscribe_tokens $$, '42501', null, 'anon reads no tokens');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000d');
select throws_ok($$ select count(*) from private.email_unsubscribe_tokens $$, '42501', null, 'a signed-in person reads no tokens, not even their own');
select pg_temp.act_as('service_role');
select throws_ok($$ select count(*) from private.email_unsubscribe_tokens $$, '42501', null, 'the service role reads no tokens either');

-- ---------------------------------------------------------------------------------------------
-- Unsubscribing: no session, once, only for the token's person

select pg_temp.act_as('anon');
select results_eq($$ select * from public.describe_email_unsubscribe(pg_temp.token('first', 'mention')) $$, $$ values ('valid'::text, 'mention'::text) $$,
  'the page can tell which emails a link stops, without using it');
select is((select count(*)::int from public.describe_email_unsubscribe('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')), 0, '…and nothing about an unknown one');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
update public.notification_settings set email_kinds = '{reply,mention}' where user_id = '5e000000-0000-4000-8000-00000000000e';
select pg_temp.act_as('anon');
select results_eq($$ select * from public.unsubscribe_from_email(pg_temp.token('first', 'mention')) $$, $$ values ('unsubscribed'::text, 'mention'::text) $$,
  'anon (a mail client, no session) unsubscribes with the link');
select is(pg_temp.email_kinds('5e000000-0000-4000-8000-00000000000d'), '{}'::text[], 'p gets no more mention emails');
select is(pg_temp.email_kinds('5e000000-0000-4000-8000-00000000000e'), '{mention,reply}'::text[], 'nobody else''s settings change');
select results_eq($$ select * from public.unsubscribe_from_email(pg_temp.token('first', 'mention')) $$, $$ values ('already_used'::text, 'mention'::text) $$,
  'the same link again says it was already used');
select throws_ok($$ select * from public.unsubscribe_from_email('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') $$, '22023',
  'That unsubscribe link isn''t valid. You can choose which emails you get on your account page.', 'a forged token is refused in words');
select throws_ok($$ select * from public.unsubscribe_from_email('5e000000-0000-4000-8000-00000000000e') $$, '22023', null, 'so is a person''s id');
select throws_ok($$ select * from public.unsubscribe_from_email(null) $$, '22023', null, '…and nothing at all');
select pg_temp.act_as('authenticated', '5e000000-0000-4000-8000-00000000000e');
select results_eq($$ select * from public.unsubscribe_from_email(pg_temp.token('first')) $$, $$ values ('unsubscribed'::text, null::text) $$,
  'a signed-in person using someone else''s all-email link…');
select is(pg_temp.email_kinds('5e000000-0000-4000-8000-00000000000e'), '{mention,reply}'::text[], '…changes only the link''s own person, never theirs');

select * from finish();
rollback;
