-- media_embeds: the embed function's cache, the server's alone. Every role × operation and the
-- rules that keep it plain text with https links.
begin;
create extension if not exists pgtap with schema extensions;
select plan(21);

\ir helpers/roles.psql

insert into public.media_embeds (url, provider, title, author, thumbnail_url, width, height)
values ('https://www.youtube.com/watch?v=jNQXAC9IVRw', 'youtube', 'Me at the zoo', 'jawed', 'https://i.ytimg.com/vi/jNQXAC9IVRw/hqdefault.jpg', 200, 150);

select ok((select now() - fetched_at < interval '1 minute' from public.media_embeds where url = 'https://www.youtube.com/watch?v=jNQXAC9IVRw'), 'fetched_at defaults to now');
select throws_like($$ insert into public.media_embeds (url, provider) values ('http://www.youtube.com/watch?v=x', 'youtube') $$, '%media_embeds_url_https%', 'a link that is not https is rejected');
select throws_like($$ insert into public.media_embeds (url, provider) values ('https://www.dailymotion.com/video/x', 'dailymotion') $$, '%media_embeds_provider%', 'a provider outside the allow-list is rejected');
select throws_like($$ insert into public.media_embeds (url, provider, title) values ('https://youtu.be/a', 'youtube', '<b>x</b>') $$, '%media_embeds_plain_text%', 'markup in a title is rejected');
select throws_like($$ insert into public.media_embeds (url, provider, author) values ('https://youtu.be/a', 'youtube', 'a<script>') $$, '%media_embeds_plain_text%', 'markup in an author is rejected');
select throws_like($$ insert into public.media_embeds (url, provider, thumbnail_url) values ('https://youtu.be/a', 'youtube', 'javascript:alert(1)') $$, '%media_embeds_thumbnail_https%', 'a thumbnail that is not https is rejected');
select throws_like($$ insert into public.media_embeds (url, provider, title) values ('https://youtu.be/a', 'youtube', repeat('x', 301)) $$, '%media_embeds_title_length%', 'a title over 300 characters is rejected');
select throws_like($$ insert into public.media_embeds (url, provider, width, height) values ('https://youtu.be/a', 'youtube', 0, 10) $$, '%media_embeds_size%', 'a size of 0 is rejected');

-- anon and signed-in users: no access at all
select pg_temp.act_as('anon');
select throws_ok($$ select * from public.media_embeds $$, '42501', null, 'anon cannot read the cache');
select throws_ok($$ insert into public.media_embeds (url, provider) values ('https://youtu.be/anon', 'youtube') $$, '42501', null, 'anon cannot write the cache');
select throws_ok($$ update public.media_embeds set title = 'x' $$, '42501', null, 'anon cannot change the cache');
select throws_ok($$ delete from public.media_embeds $$, '42501', null, 'anon cannot empty the cache');

select pg_temp.act_as('authenticated', '11111111-1111-4111-8111-111111111111');
select throws_ok($$ select * from public.media_embeds $$, '42501', null, 'a signed-in user cannot read which links were looked up');
select throws_ok($$ insert into public.media_embeds (url, provider, title) values ('https://youtu.be/mine', 'youtube', 'Fake title') $$, '42501', null, 'a signed-in user cannot plant details for a link');
select throws_ok($$ update public.media_embeds set title = 'Defaced' $$, '42501', null, 'a signed-in user cannot change cached details');
select throws_ok($$ delete from public.media_embeds $$, '42501', null, 'a signed-in user cannot delete cached details');

-- the server
select pg_temp.act_as('service_role');
select results_eq($$ select title from public.media_embeds where url = 'https://www.youtube.com/watch?v=jNQXAC9IVRw' $$, $$ values ('Me at the zoo'::text) $$, 'the server reads the cache');
select lives_ok($$ insert into public.media_embeds (url, provider, title) values ('https://vimeo.com/76979871', 'vimeo', 'A title')
  on conflict (url) do update set title = excluded.title, fetched_at = now() $$, 'the server writes an entry');
select lives_ok($$ insert into public.media_embeds (url, provider, title) values ('https://vimeo.com/76979871', 'vimeo', 'A newer title')
  on conflict (url) do update set title = excluded.title, fetched_at = now() $$, '... and refreshes it in place');
select results_eq($$ delete from public.media_embeds where url = 'https://vimeo.com/76979871' returning title $$, $$ values ('A newer title'::text) $$, 'the server deletes an entry');
select pg_temp.act_as_superuser();

select policies_are('public', 'media_embeds', array['Embed details are the server''s alone'], 'media_embeds has exactly the expected policy');

select * from finish();
rollback;
