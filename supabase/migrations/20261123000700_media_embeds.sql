-- media_embeds: the embed function's cache of oEmbed details per media link (keyed by the link as
-- the function normalises it). Plain text and an https thumbnail only, never a provider's HTML.
-- Written and read by the server alone: a post copies the details it shows into its own row, so
-- nothing here needs to be readable by people (and which links were looked up is nobody's business).
create table public.media_embeds (
  url text primary key,
  provider text not null,
  title text,
  author text,
  thumbnail_url text,
  duration_seconds numeric,
  width integer,
  height integer,
  fetched_at timestamptz not null default now(),
  constraint media_embeds_url_https check (url ~ '^https://' and char_length(url) <= 2048),
  constraint media_embeds_provider check (provider in ('youtube', 'vimeo', 'soundcloud', 'spotify', 'twitch', 'tiktok', 'wistia', 'mux')),
  constraint media_embeds_title_length check (char_length(title) between 1 and 300),
  constraint media_embeds_author_length check (char_length(author) between 1 and 200),
  constraint media_embeds_plain_text check (title !~ '[<>]' and author !~ '[<>]'),
  constraint media_embeds_thumbnail_https check (thumbnail_url ~ '^https://' and char_length(thumbnail_url) <= 2048),
  constraint media_embeds_duration check (duration_seconds > 0),
  constraint media_embeds_size check (width > 0 and height > 0)
);

comment on table public.media_embeds is 'oEmbed details per media link, cached by the embed function (server only).';

-- the cache is refreshed by age
create index media_embeds_fetched_at_idx on public.media_embeds (fetched_at);

alter table public.media_embeds enable row level security;

revoke all on public.media_embeds from anon, authenticated;
grant select, insert, update, delete on public.media_embeds to service_role;

create policy "Embed details are the server's alone"
  on public.media_embeds as restrictive for all
  to anon, authenticated
  using (false)
  with check (false);
