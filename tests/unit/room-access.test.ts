// What a room's pages show a caller (read the posts, open settings, delete a post), derived from the
// room and the membership the room loader read — after a stale gated membership is checked again.
import { describe, expect, test, vi } from "vitest";
import { mayDeletePost, noAccess, roomAccess } from "@/lib/rooms/access";
import { freshMembership } from "@/lib/rooms/membership-freshness";
import type { RoomMembership, RoomRole } from "@/lib/rooms/queries";
import { membershipRecheckAfterMs } from "@/lib/validation/join-room";

const now = Date.parse("2026-03-01T12:00:00Z");
const ago = (ms: number) => new Date(now - ms).toISOString();
const membership = (role: RoomRole, verified_at: string | null = null): RoomMembership => ({
  role,
  joined_at: ago(86_400_000),
  verified_wallet: null,
  verified_at,
});
const asIs = (m: RoomMembership | null) => ({ membership: m, notice: null, lapsed: false });

const publicRoom = { id: "room-1", visibility: "public" };
const gatedRoom = { id: "room-1", visibility: "gated" };

/** A functions client whose join-room answers `answer` to a re-check. */
function functionsAnswering(answer: unknown) {
  const invoke = vi.fn(async () => ({ data: answer, error: null }));
  return { client: { functions: { invoke } } as unknown as Parameters<typeof freshMembership>[0], invoke };
}

describe("roomAccess", () => {
  test("a public room: everyone reads, only its owner and moderators manage", () => {
    expect(roomAccess(publicRoom, asIs(null))).toEqual({
      membership: null,
      notice: null,
      lapsed: false,
      role: null,
      canRead: true,
      canManage: false,
    });
    expect(roomAccess(publicRoom, asIs(membership("member")))).toMatchObject({ role: "member", canRead: true, canManage: false });
    expect(roomAccess(publicRoom, asIs(membership("moderator")))).toMatchObject({ role: "moderator", canRead: true, canManage: true });
    expect(roomAccess(publicRoom, asIs(membership("owner")))).toMatchObject({ role: "owner", canRead: true, canManage: true });
  });

  test("a gated room: a visitor sees the members-only view; every member reads", () => {
    expect(roomAccess(gatedRoom, asIs(null))).toMatchObject({ role: null, canRead: false, canManage: false });
    expect(roomAccess(gatedRoom, asIs(membership("member", ago(60_000))))).toMatchObject({
      role: "member",
      canRead: true,
      canManage: false,
    });
    expect(roomAccess(gatedRoom, asIs(membership("owner")))).toMatchObject({ role: "owner", canRead: true, canManage: true });
  });

  test("a gated membership that just lapsed reads as a visitor, with the reason kept for the page", () => {
    const access = roomAccess(gatedRoom, { membership: null, notice: "You are no longer a member of this room. Sold.", lapsed: true });
    expect(access).toEqual({
      membership: null,
      notice: "You are no longer a member of this room. Sold.",
      lapsed: true,
      role: null,
      canRead: false,
      canManage: false,
    });
  });

  test("a room that did not load grants nothing", () => {
    expect(noAccess).toEqual({ membership: null, notice: null, lapsed: false, role: null, canRead: false, canManage: false });
    expect(Object.isFrozen(noAccess)).toBe(true);
  });
});

describe("roomAccess after freshMembership (what loadRoomAccess does)", () => {
  test("a gated member checked under an hour ago reads without a re-check", async () => {
    const { client, invoke } = functionsAnswering({ status: "fresh" });
    const loaded = membership("member", ago(membershipRecheckAfterMs - 60_000));
    expect(roomAccess(gatedRoom, await freshMembership(client, gatedRoom, loaded, now))).toMatchObject({
      membership: loaded,
      role: "member",
      canRead: true,
    });
    expect(invoke).not.toHaveBeenCalled();
  });

  test("a stale gated member who no longer holds the token is out, and told why", async () => {
    const { client, invoke } = functionsAnswering({
      status: "lapsed",
      reason: "None of your linked wallets hold enough.",
      requirement: "At least 1 CUEPASS",
    });
    const access = roomAccess(
      gatedRoom,
      await freshMembership(client, gatedRoom, membership("member", ago(membershipRecheckAfterMs + 60_000)), now),
    );
    expect(invoke).toHaveBeenCalledTimes(1);
    expect(access).toEqual({
      membership: null,
      notice: "You are no longer a member of this room. None of your linked wallets hold enough.",
      lapsed: true,
      role: null,
      canRead: false,
      canManage: false,
    });
  });

  test("owners, moderators and members of a public room are never re-checked", async () => {
    const { client, invoke } = functionsAnswering({ status: "lapsed", reason: "x", requirement: "y" });
    expect(roomAccess(gatedRoom, await freshMembership(client, gatedRoom, membership("owner"), now))).toMatchObject({
      role: "owner",
      canManage: true,
    });
    expect(roomAccess(gatedRoom, await freshMembership(client, gatedRoom, membership("moderator"), now))).toMatchObject({
      role: "moderator",
      canManage: true,
    });
    expect(roomAccess(publicRoom, await freshMembership(client, publicRoom, membership("member"), now))).toMatchObject({
      role: "member",
      canRead: true,
    });
    expect(invoke).not.toHaveBeenCalled();
  });
});

describe("mayDeletePost", () => {
  test("its author, and the room's moderators and owner", () => {
    expect(mayDeletePost({ userId: "a", role: "member" }, "a")).toBe(true);
    expect(mayDeletePost({ userId: "a", role: null }, "a")).toBe(true);
    expect(mayDeletePost({ userId: "b", role: "moderator" }, "a")).toBe(true);
    expect(mayDeletePost({ userId: "b", role: "owner" }, "a")).toBe(true);
    expect(mayDeletePost({ userId: "b", role: "member" }, "a")).toBe(false);
    expect(mayDeletePost({ userId: null, role: null }, "a")).toBe(false);
  });
});
