-- A comment of only line breaks or tabs passed moments_body_length (btrim strips spaces only),
-- while the shared schema (lib/validation/moment.ts, trim()) refuses it: the database now refuses
-- any body without a visible character too. Same constraint name and comment, so the app's error
-- mapping is unchanged.
alter table public.moments drop constraint moments_body_length;
alter table public.moments add constraint moments_body_length
  check (char_length(body) <= 1000 and body ~ '[^[:space:]]');
comment on constraint moments_body_length on public.moments is 'Comments are 1–1000 characters';
