-- The database holds a link post's media_url to the same rule as the form and the server action
-- (lib/media/url-rules.ts, which stores the parsed link's canonical form): https, a public host named
-- by name (no IP literal, no single-label or reserved name), no credentials, a port in range,
-- printable ASCII without backslashes, at most 2048 characters. Before, `^https://` and a
-- non-space were enough, and `https://[x]` went in through REST. Both sides are tested against one
-- table of cases (tests/fixtures/media-links.json).

create function private.is_media_url(link text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  authority text;
  host text;
  port text;
  labels text[];
  top text;
begin
  if link is null or char_length(link) > 2048 or link !~ '^https://' then
    return false;
  end if;
  -- printable ASCII only, as a parsed link's canonical form is (anything else is percent-encoded or
  -- punycode there): no space, control character, invisible or direction-changing character; and no
  -- backslash, which some clients read as a separator
  if link !~ '^[!-~]+$' or position(chr(92) in link) > 0 then
    return false;
  end if;
  authority := substring(link from '^https://([^/?#]*)');
  if authority is null or authority = '' or position('@' in authority) > 0 then
    return false;
  end if;
  host := substring(authority from '^([^:]*)');
  port := substring(authority from '^[^:]*:(.*)$');
  if port is not null and (port !~ '^[0-9]{1,5}$' or port::integer not between 1 and 65535) then
    return false;
  end if;
  host := regexp_replace(host, '\.$', '');
  labels := string_to_array(host, '.');
  if cardinality(labels) < 2 or exists (select 1 from unnest(labels) as label where label !~ '^[a-z0-9_-]{1,63}$') then
    return false;
  end if;
  top := labels[cardinality(labels)];
  if top !~ '^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$' then
    return false;
  end if;
  return top not in ('localhost', 'local', 'internal', 'localdomain', 'home', 'lan', 'test', 'invalid', 'example', 'onion');
end;
$$;

comment on function private.is_media_url(text) is 'Whether a stored media link keeps the form''s rule (lib/media/url-rules.ts): https, a public host by name, no credentials, a port in range.';

revoke all on function private.is_media_url(text) from public;
grant execute on function private.is_media_url(text) to anon, authenticated, service_role;

-- Rows stored before stay as they are (the pages render any of them safely); every new or changed
-- link is held to the rule.
alter table public.posts
  add constraint posts_media_url_rule check (media_url is null or private.is_media_url(media_url)) not valid;

comment on constraint posts_media_url_rule on public.posts is 'That isn''t a link we can read — paste the full address, starting with https://';
