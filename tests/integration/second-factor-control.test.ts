// A second factor covers everything an account controls, tried as an attacker who has only the
// password would: supabase-js signed in with it (aal1) against the running stack, calling REST,
// Storage and the session functions directly, never the app's pages (which send such a session to
// /login/mfa). They read and take part; they rename, move and delete nothing, remove no one,
// replace no cover and end no session. The same owner at aal2 does all of it.
import { describe, expect, test } from "vitest";
import { createRoom } from "../helpers/rooms";
import { anonClient } from "../helpers/stack";
import { clearOfStepEnd, totp } from "../helpers/totp";
import { signedInUser } from "../helpers/wallets";

const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("an owner with a verified authenticator, signed in with the password alone", () => {
  test("reads and takes part, but changes nothing the account controls, through REST, Storage or RPC; at aal2 they can", async () => {
    const owner = await signedInUser("aal-owner");
    const member = await signedInUser("aal-member");
    const room = await createRoom(owner.client, "aal");
    expect((await member.client.from("memberships").insert({ room_id: room.id, user_id: member.id })).error).toBeNull();
    const post = await member.client
      .from("posts")
      .insert({
        room_id: room.id,
        author_id: member.id,
        title: "Member's track",
        media_kind: "embed",
        media_url: "https://media.cuepoint-files.com/track.wav",
      })
      .select("id")
      .single();
    expect(post.error).toBeNull();
    // A moderator (who may start sessions) hosts one.
    expect(
      (await owner.client.from("memberships").update({ role: "moderator" }).eq("room_id", room.id).eq("user_id", member.id).select("role"))
        .data,
    ).toEqual([{ role: "moderator" }]);
    const session = await member.client.rpc("start_listening_session", { room_id: room.id });
    expect(session.error).toBeNull();
    const sessionId = (session.data as { id: string }).id;

    // The owner enrolls an authenticator (their own client is now aal2); the attacker signs in with the password.
    const { data: factor } = await owner.client.auth.mfa.enroll({ factorType: "totp" });
    await clearOfStepEnd();
    expect(
      (await owner.client.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret, -1) })).error,
    ).toBeNull();
    const aal1 = anonClient();
    expect((await aal1.auth.signInWithPassword({ email: owner.email, password: "correct-horse-battery" })).error).toBeNull();
    expect((await aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });

    // Reads and takes part.
    expect((await aal1.from("posts").select("id").eq("room_id", room.id)).data).toEqual([{ id: post.data!.id }]);
    expect(
      (await aal1.from("moments").insert({ post_id: post.data!.id, author_id: owner.id, body: "from a password alone" })).error,
    ).toBeNull();

    // REST: every change of the room, its members or others' content reaches no row.
    expect((await aal1.from("rooms").update({ name: "Taken over" }).eq("id", room.id).select("id")).data).toEqual([]);
    expect(
      (
        await aal1
          .from("rooms")
          .update({ slug: `${room.slug}-moved` })
          .eq("id", room.id)
          .select("id")
      ).data,
    ).toEqual([]);
    expect((await aal1.from("memberships").delete().eq("room_id", room.id).eq("user_id", member.id).select("user_id")).data).toEqual([]);
    expect((await aal1.from("posts").delete().eq("id", post.data!.id).select("id")).data).toEqual([]);
    expect((await aal1.from("rooms").delete().eq("id", room.id).select("id")).data).toEqual([]);
    // Storage: no cover, no avatar.
    const cover = await aal1.storage.from("room-covers").upload(`${room.id}/cover.png`, new Blob([png], { type: "image/png" }));
    expect(cover.error).toMatchObject({ statusCode: "403" });
    const avatar = await aal1.storage.from("avatars").upload(`${owner.id}/avatar.png`, new Blob([png], { type: "image/png" }));
    expect(avatar.error).toMatchObject({ statusCode: "403" });
    // RPC: the moderator's session is not theirs to end or hand over; they are told why.
    expect((await aal1.rpc("end_listening_session", { session_id: sessionId })).error?.message).toBe(
      "Enter the code from your authenticator app first, then end the session",
    );
    expect((await aal1.rpc("hand_over_session", { session_id: sessionId, new_host_id: owner.id })).error?.message).toBe(
      "Enter the code from your authenticator app first, then hand over the session",
    );

    // Nothing changed.
    const { data: still } = await owner.client.from("rooms").select("name, slug").eq("id", room.id).single();
    expect(still).toEqual({ name: "Room aal", slug: room.slug });
    expect((await owner.client.from("memberships").select("user_id").eq("room_id", room.id).eq("user_id", member.id)).data).toHaveLength(1);

    // At aal2, the owner does all of it.
    expect((await owner.client.from("rooms").update({ name: "Renamed at aal2" }).eq("id", room.id).select("name")).data).toEqual([
      { name: "Renamed at aal2" },
    ]);
    expect(
      (await owner.client.storage.from("room-covers").upload(`${room.id}/cover.png`, new Blob([png], { type: "image/png" }))).error,
    ).toBeNull();
    expect((await owner.client.rpc("end_listening_session", { session_id: sessionId })).error).toBeNull();
    expect((await owner.client.from("posts").delete().eq("id", post.data!.id).select("id")).data).toEqual([{ id: post.data!.id }]);
    expect(
      (await owner.client.from("memberships").delete().eq("room_id", room.id).eq("user_id", member.id).select("user_id")).data,
    ).toEqual([{ user_id: member.id }]);
    expect((await owner.client.storage.from("room-covers").remove([`${room.id}/cover.png`])).data).toHaveLength(1);
    expect((await owner.client.from("rooms").delete().eq("id", room.id).select("id")).data).toEqual([{ id: room.id }]);
  });

  test("an account without a factor is not held back: the same calls at aal1 work", async () => {
    const owner = await signedInUser("aal-plain-owner");
    const member = await signedInUser("aal-plain-member");
    const room = await createRoom(owner.client, "aal-plain");
    expect((await member.client.from("memberships").insert({ room_id: room.id, user_id: member.id })).error).toBeNull();
    expect((await owner.client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
    expect((await owner.client.from("rooms").update({ name: "Plain rename" }).eq("id", room.id).select("name")).data).toEqual([
      { name: "Plain rename" },
    ]);
    expect(
      (await owner.client.storage.from("room-covers").upload(`${room.id}/cover.png`, new Blob([png], { type: "image/png" }))).error,
    ).toBeNull();
    expect(
      (await owner.client.from("memberships").delete().eq("room_id", room.id).eq("user_id", member.id).select("user_id")).data,
    ).toEqual([{ user_id: member.id }]);
    expect((await owner.client.storage.from("room-covers").remove([`${room.id}/cover.png`])).data).toHaveLength(1);
    expect((await owner.client.from("rooms").delete().eq("id", room.id).select("id")).data).toEqual([{ id: room.id }]);
  });
});
