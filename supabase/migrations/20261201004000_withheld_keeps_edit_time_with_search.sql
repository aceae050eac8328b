-- Hiding, showing again, holding or approving an item is still not an edit. Since posts and moments
-- carry a stored generated search_document (20261130002200), a before trigger sees it not yet
-- computed in NEW, so the comparison of the rest of the row never matched and every hide bumped
-- updated_at (an "edited" mark on an untouched comment). Leave the column out, as the waveform's
-- trigger does.
create or replace function private.withheld_keeps_edit_time()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (to_jsonb(new) - 'hidden_at' - 'held_at' - 'updated_at' - 'search_document')
     = (to_jsonb(old) - 'hidden_at' - 'held_at' - 'updated_at' - 'search_document') then
    new.updated_at := old.updated_at;
  end if;
  return new;
end;
$$;
