-- post_waveforms: an upload's peaks, written by its author with the post or later by the server,
-- within their bounds whoever writes them; read with the post; never in the room's live messages.
begin;
create extension if not exists pgtap with schema extensions;
select plan(17);

\ir helpers/roles.psql

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('media', 'media', false, 52428800, array['audio/*', 'video/*'])
on conflict (id) do nothing;

insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at) values
  ('0000a00a-0000-4000-8000-00000000000a', 'authenticated', 'authenticated', 'wave-owner@example.test', '{"username":"wave_owner"}', now(), now()),
  ('0000a00c-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'wave-author@example.test', '{"username":"wave_author"}', now(), now());
insert into public.rooms (id, slug, name, owner_id, visibility) values
  ('1000a000-0000-4000-8000-000000000001', 'waveforms-public', 'Waves', '0000a00a-0000-4000-8000-00000000000a', 'public');
insert into public.memberships (room_id, user_id, role) values
  ('1000a000-0000-4000-8000-000000000001', '0000a00c-0000-4000-8000-00000000000c', 'member');
insert into storage.objects (bucket_id, name, owner_id, metadata)
select 'media', '1000a000-0000-4000-8000-000000000001/0000a00c-0000-4000-8000-00000000000c/' || f || '.mp3', '0000a00c-0000-4000-8000-00000000000c', '{"size": 10, "mimetype": "audio/mpeg"}'
from unnest(array['ok', 'long', 'loud', 'negative', 'hole', 'flat', 'empty', 'old']) f;

create function pg_temp.post_with(file text, peaks text) returns text
language sql as $$
  select format($f$ insert into public.posts (room_id, author_id, title, media_kind, storage_path, waveform)
    values ('1000a000-0000-4000-8000-000000000001', '0000a00c-0000-4000-8000-00000000000c', 'Tone', 'upload',
    '1000a000-0000-4000-8000-000000000001/0000a00c-0000-4000-8000-00000000000c/%s.mp3', %s) $f$, file, peaks)
$$;

select has_column('public', 'posts', 'waveform', 'posts have a waveform');
select col_type_is('public', 'posts', 'waveform', 'smallint[]', 'a waveform is small integers');

-- the author, with the post
select pg_temp.act_as('authenticated', '0000a00c-0000-4000-8000-00000000000c');
select lives_ok(pg_temp.post_with('ok', $$ (select array_agg((i % 256)::smallint) from generate_series(0, 999) i) $$),
  'the author posts an upload with 1000 peaks from 0 to 255');
select throws_like(pg_temp.post_with('long', $$ (select array_agg(1::smallint) from generate_series(1, 1001) i) $$),
  '%posts_waveform_shape%', 'more than 1000 peaks are refused');
select throws_like(pg_temp.post_with('loud', $$ array[1, 256]::smallint[] $$), '%posts_waveform_shape%', 'a peak above 255 is refused');
select throws_like(pg_temp.post_with('negative', $$ array[3, -1]::smallint[] $$), '%posts_waveform_shape%', 'a negative peak is refused');
select throws_like(pg_temp.post_with('hole', $$ array[3, null, 4]::smallint[] $$), '%posts_waveform_shape%', 'a missing peak is refused');
select throws_like(pg_temp.post_with('flat', $$ array[[1, 2], [3, 4]]::smallint[] $$), '%posts_waveform_shape%', 'peaks in rows are refused');
select throws_like(pg_temp.post_with('empty', $$ '{}'::smallint[] $$), '%posts_waveform_shape%', 'an empty waveform is refused');
select throws_like($$ insert into public.posts (room_id, author_id, title, media_kind, media_url, waveform)
    values ('1000a000-0000-4000-8000-000000000001', '0000a00c-0000-4000-8000-00000000000c', 'Link', 'embed', 'https://vimeo.com/1', array[1]::smallint[]) $$,
  '%posts_waveform_shape%', 'a link has no waveform');
select lives_ok(pg_temp.post_with('old', 'null'), 'an upload without a waveform is still posted');
select throws_ok($$ update public.posts set waveform = array[255]::smallint[] where title = 'Tone' $$, '42501', null,
  'the author cannot change a waveform afterwards');

select pg_temp.act_as('anon');
select is((select cardinality(waveform) from public.posts where storage_path like '%/ok.mp3'), 1000, 'anyone who reads the post reads its waveform');

-- the server's backfill
select pg_temp.act_as_superuser();
alter table public.posts disable trigger posts_touch_updated_at;
update public.posts set updated_at = now() - interval '1 day', created_at = now() - interval '1 day' where storage_path like '%/old.mp3';
alter table public.posts enable trigger posts_touch_updated_at;
delete from realtime.messages where topic like 'room:1000a000-0000-4000-8000-000000000001%';
select pg_temp.act_as('service_role');
select is(pg_temp.touched($$ update public.posts set waveform = array[0, 128, 255]::smallint[] where storage_path like '%/old.mp3' and waveform is null $$), 1,
  'the server adds the waveform of an old upload');
select ok((select updated_at < now() - interval '1 hour' from public.posts where storage_path like '%/old.mp3'), '... which does not count as an edit');
select throws_like($$ update public.posts set waveform = array[300]::smallint[] where storage_path like '%/old.mp3' $$, '%posts_waveform_shape%',
  'the server too keeps to the bounds');
select pg_temp.act_as_superuser();

select is((select count(*)::int from realtime.messages where topic like 'room:1000a000-0000-4000-8000-000000000001%'
  and payload -> 'record' ? 'id' and not (payload -> 'record' ? 'waveform')), 1,
  'the room hears of the change without the waveform');

select * from finish();
rollback;
