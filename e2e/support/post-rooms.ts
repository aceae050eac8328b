// Rooms for e2e tests, made as their owner would make them (the create_room RPC, signed in), and
// reads of what the backend holds, as the database's service role, to check what a page did.
import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import { dbUrl, loadConfig } from "@cuepoint/stack";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";
import { wavFile } from "../../tests/helpers/media-files";
import { apiUrl } from "./users";

const noSession = { persistSession: false, autoRefreshToken: false };
export const service = createClient(apiUrl, serviceRoleKey, { auth: noSession });

export async function signedInClient(email: string, password: string): Promise<SupabaseClient> {
  const client = createClient(apiUrl, anonKey, { auth: noSession });
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`could not sign in ${email}: ${error.message}`);
  return client;
}

const gate = {
  chain_id: 31337,
  contract_address: "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707",
  standard: "erc721",
  token_id: null,
  min_balance: "1",
};

export async function createRoomAs(
  owner: SupabaseClient,
  label: string,
  gated = false,
): Promise<{ id: string; slug: string; name: string }> {
  const slug = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const name = `${label[0].toUpperCase()}${label.slice(1).replace(/-/g, " ")} ${slug.slice(-5)}`;
  const { data, error } = await owner.rpc("create_room", { slug, name, description: "", gate: gated ? gate : null });
  if (error || !data) throw new Error(`could not create room ${slug}: ${error?.message}`);
  const room = data as { id: string };
  return { id: room.id, slug, name };
}

/** A post of an uploaded tone (`seconds` long, a WAV file), made by its author as the upload form would. Returns its id. */
export async function uploadTone(
  client: SupabaseClient,
  roomId: string,
  authorId: string,
  title: string,
  seconds: number,
): Promise<string> {
  const path = `${roomId}/${authorId}/${randomUUID()}.wav`;
  const stored = await client.storage.from("media").upload(path, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
  if (stored.error) throw new Error(`could not upload ${title}: ${stored.error.message}`);
  const { data, error } = await client
    .from("posts")
    .insert({ room_id: roomId, author_id: authorId, title, media_kind: "upload", storage_path: path, duration_seconds: seconds })
    .select("id")
    .single();
  if (error || !data) throw new Error(`could not post ${title}: ${error?.message}`);
  return (data as { id: string }).id;
}

export async function postsIn(roomId: string) {
  const { data } = await service
    .from("posts")
    .select("id, title, media_kind, storage_path, duration_seconds, embed")
    .eq("room_id", roomId)
    .order("created_at");
  return data ?? [];
}

export async function filesIn(roomId: string, userId: string): Promise<string[]> {
  const { data } = await service.storage.from("media").list(`${roomId}/${userId}`);
  return (data ?? []).map((file) => `${roomId}/${userId}/${file.name}`);
}

/**
 * A link post as one stored before the database held links to the form's rule (its check is
 * `not valid`: older rows stay as they were): written with the rule lifted for that one row, in one
 * transaction, so the pages can be tried against it. Returns its id.
 */
export async function insertLegacyLinkPost(row: { room_id: string; author_id: string; title: string; media_url: string }): Promise<string> {
  const client = new pg.Client({ connectionString: dbUrl(loadConfig()) });
  await client.connect();
  try {
    await client.query("begin");
    // The rule's comment holds the words people read when it refuses a link; it goes with the
    // constraint, so it is put back with it (supabase/schema.sql, which a test holds fresh, has it).
    const { rows: described } = await client.query<{ words: string | null }>(
      "select obj_description(oid, 'pg_constraint') as words from pg_constraint where conname = 'posts_media_url_rule' and conrelid = 'public.posts'::regclass",
    );
    await client.query("alter table public.posts drop constraint posts_media_url_rule");
    const inserted = await client.query<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, 'embed', $4) returning id",
      [row.room_id, row.author_id, row.title, row.media_url],
    );
    await client.query(
      "alter table public.posts add constraint posts_media_url_rule check (media_url is null or private.is_media_url(media_url)) not valid",
    );
    const words = described[0]?.words;
    if (words) await client.query(`comment on constraint posts_media_url_rule on public.posts is ${client.escapeLiteral(words)}`);
    await client.query("commit");
    return inserted.rows[0].id;
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    await client.end();
  }
}
