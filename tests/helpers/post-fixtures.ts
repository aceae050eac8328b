// Rooms and members for the posts integration tests and bench: people signed in through Auth,
// rooms written as the database owner (a gated room and its gate in one statement, as the
// gate-consistency check runs at commit).
import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { adminQuery, anonKey, apiUrl, serviceClient } from "./stack";

export interface TestUser {
  id: string;
  email: string;
  client: SupabaseClient;
  accessToken: string;
}

const password = "posts-integration-password";

export async function signedInUser(label: string): Promise<TestUser> {
  const email = `${label}-${randomUUID().slice(0, 8)}@integration.cuepoint.test`;
  const created = await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  const client = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const signedIn = await client.auth.signInWithPassword({ email, password });
  if (signedIn.error) throw signedIn.error;
  return { id: created.data.user.id, email, client, accessToken: signedIn.data.session.access_token };
}

/** A room owned by `ownerId`, public or gated (behind an ERC-721 on the local chain). */
export async function createRoom(ownerId: string, visibility: "public" | "gated"): Promise<{ id: string; slug: string }> {
  const id = randomUUID();
  const slug = `${visibility}-${id.slice(0, 8)}`;
  if (visibility === "public") {
    await adminQuery("insert into public.rooms (id, slug, name, owner_id, visibility) values ($1, $2, $3, $4, 'public')", [
      id,
      slug,
      `Room ${slug}`,
      ownerId,
    ]);
  } else {
    await adminQuery(
      `with room as (insert into public.rooms (id, slug, name, owner_id, visibility) values ($1, $2, $3, $4, 'gated') returning id)
       insert into public.room_gates (room_id, chain_id, contract_address, standard) select id, 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721' from room`,
      [id, slug, `Room ${slug}`, ownerId],
    );
  }
  return { id, slug };
}

/** A member as the join-room function leaves one: in a gated room, with the balance just checked. */
export async function addMember(roomId: string, userId: string, role: "member" | "moderator" = "member") {
  await adminQuery(
    "insert into public.memberships (room_id, user_id, role, verified_at) select $1, $2, $3, case when r.visibility = 'gated' then now() end from public.rooms r where r.id = $1",
    [roomId, userId, role],
  );
}

export async function deleteUsers(...users: (TestUser | undefined)[]) {
  const admin = serviceClient();
  for (const user of users) if (user) await admin.auth.admin.deleteUser(user.id);
}
