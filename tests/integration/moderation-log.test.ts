// The moderation log through the API (supabase/migrations/20261129000100_moderation_log.sql): a ban
// writes its entry; the owner and moderators read it, a member and anon do not; and nobody — owner,
// moderator, the person it names, anon, not even the service role — edits, deletes or adds to it
// through REST, whatever they send.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRoom } from "../helpers/rooms";
import { adminQuery, anonClient } from "../helpers/stack";
import { admin, signedInUser } from "../helpers/wallets";

type User = Awaited<ReturnType<typeof signedInUser>>;
let owner: User;
let moderator: User;
let member: User;
let roomId: string;
let entryId: string;

beforeAll(async () => {
  [owner, moderator, member] = await Promise.all([signedInUser("log-owner"), signedInUser("log-mod"), signedInUser("log-member")]);
  roomId = (await createRoom(owner.client, "log")).id;
  await adminQuery("insert into public.memberships (room_id, user_id, role) values ($1, $2, 'moderator'), ($1, $3, 'member')", [
    roomId,
    moderator.id,
    member.id,
  ]);
  const banned = await moderator.client.rpc("ban_member", { room_id: roomId, user_id: member.id, reason: "spam links" } as never);
  expect(banned.error).toBeNull();
  const { data } = await owner.client.from("moderation_log").select("id").eq("room_id", roomId).eq("action", "ban").single();
  entryId = data!.id;
});

afterAll(async () => {
  await admin.from("rooms").delete().eq("id", roomId);
  for (const user of [owner, moderator, member]) if (user) await admin.auth.admin.deleteUser(user.id);
});

const entry = () => adminQuery<{ reason: string }>("select reason from public.moderation_log where id = $1", [entryId]);

describe("the moderation log", () => {
  test("a ban is recorded with who, whom and why; the owner and moderators read it, the member and anon do not", async () => {
    const { data } = await owner.client
      .from("moderation_log")
      .select("action, actor_id, target_user_id, reason")
      .eq("id", entryId)
      .single();
    expect(data).toEqual({ action: "ban", actor_id: moderator.id, target_user_id: member.id, reason: "spam links" });
    expect((await moderator.client.from("moderation_log").select("id").eq("room_id", roomId)).data).toHaveLength(1);
    expect((await member.client.from("moderation_log").select("id").eq("room_id", roomId)).data).toEqual([]);
    expect((await anonClient().from("moderation_log").select("id").eq("room_id", roomId)).error).toMatchObject({ code: "42501" });
  });

  test("nobody edits, deletes or adds entries through REST, the service role included", async () => {
    const callers = {
      owner: owner.client,
      moderator: moderator.client,
      "the person it names": member.client,
      anon: anonClient(),
      "service role": admin,
    };
    for (const [who, client] of Object.entries(callers)) {
      const edited = await client
        .from("moderation_log")
        .update({ reason: "nothing happened" } as never)
        .eq("id", entryId);
      expect(edited.error, `${who} edits`).toMatchObject({ code: "42501" });
      const deleted = await client.from("moderation_log").delete().eq("id", entryId);
      expect(deleted.error, `${who} deletes`).toMatchObject({ code: "42501" });
      const added = await client.from("moderation_log").insert({ room_id: roomId, action: "unban", reason: "forged" } as never);
      expect(added.error, `${who} adds`).toMatchObject({ code: "42501" });
    }
    expect(await entry()).toEqual([{ reason: "spam links" }]);
    const forged = await adminQuery<{ n: number }>(
      "select count(*)::int as n from public.moderation_log where room_id = $1 and reason = 'forged'",
      [roomId],
    );
    expect(forged[0].n).toBe(0);
  });
});
