// "Here now": the people presence names, shown only from the database's rows for them (each person
// once, with their own name and what they play), the page's own person first.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { type HereRow, HereRows, inTurn, keepMarked, presentIds } from "@/lib/realtime/here-rows";
import { hereNowOf, presenceSelf } from "@/lib/realtime/presence";
import { endsMembershipOf } from "@/lib/realtime/room-channel";
import { membershipEndedMessage } from "@/lib/realtime/room-messages";

const row = (user: string, extra: Partial<HereRow> = {}): HereRow => ({
  user_id: user,
  username: user.slice(2),
  display_name: user.slice(2, 3).toUpperCase() + user.slice(3),
  avatar_path: null,
  ens_name: null,
  ens_avatar: null,
  role: "member",
  session_id: null,
  playing_post_id: null,
  playing_title: null,
  following: true,
  since: "2026-11-26T20:00:00.000Z",
  seen_at: "2026-11-26T20:00:10.000Z",
  ...extra,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test("presence names ids only: whatever else a payload says is not read", () => {
  const ids = presentIds({
    "u-bo": [{ user_id: "u-bo", display_name: "Admin", role: "owner" }],
    random: [{ user_id: "u-ada" }, null, "x", { user_id: 5 }] as unknown[],
  });
  expect([...ids].sort()).toEqual(["u-ada", "u-bo"]);
});

test("each person shows as their row says, with what they play; self first, then by name", () => {
  const people = hereNowOf(
    [row("u-ada"), row("u-bo", { avatar_path: "u-bo/a.png", playing_post_id: "p-1", playing_title: "Night drive" })],
    "u-bo",
  );
  expect(people).toEqual([
    {
      userId: "u-bo",
      username: "bo",
      displayName: "Bo",
      avatarPath: "u-bo/a.png",
      playing: { post_id: "p-1", title: "Night drive" },
      isSelf: true,
    },
    { userId: "u-ada", username: "ada", displayName: "Ada", avatarPath: null, playing: null, isSelf: false },
  ]);
});

test("an id in presence without a row of its own shows no one; a row without presence (gone) shows no one", async () => {
  const shown: string[][] = [];
  const rows = new HereRows(
    async () => [row("u-ada"), row("u-gone")],
    (found) => shown.push(found.map((r) => r.user_id)),
    () => 100,
  );
  rows.present(new Set(["u-ada", "u-forged"]));
  await vi.advanceTimersByTimeAsync(100);
  expect(shown.at(-1)).toEqual(["u-ada"]);
  rows.stop();
});

test("presence changes are read in one go after a pause, and again every 30 s", async () => {
  const read = vi.fn(async () => [row("u-ada")]);
  const rows = new HereRows(
    read,
    () => undefined,
    () => 500,
  );
  rows.present(new Set(["u-ada"]));
  rows.present(new Set(["u-ada", "u-bo"]));
  rows.prompt();
  await vi.advanceTimersByTimeAsync(499);
  expect(read).toHaveBeenCalledTimes(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(read).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(30_000);
  expect(read).toHaveBeenCalledTimes(2);
  rows.stop();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(read).toHaveBeenCalledTimes(2);
});

test("a read that fails keeps what was shown", async () => {
  const shown: string[][] = [];
  let answer: HereRow[] | null = [row("u-ada")];
  const rows = new HereRows(
    async () => answer,
    (found) => shown.push(found.map((r) => r.user_id)),
    () => 10,
  );
  rows.present(new Set(["u-ada"]));
  await vi.advanceTimersByTimeAsync(10);
  answer = null;
  rows.prompt();
  await vi.advanceTimersByTimeAsync(10);
  expect(shown).toEqual([["u-ada"]]);
  rows.stop();
});

test("a page stays marked: at once and every 30 s, presence told only after a mark that took, then the rows read; nothing after the stop", async () => {
  const calls: string[] = [];
  let answer: number | null = null;
  const stop = keepMarked(
    async () => {
      calls.push("mark");
      return answer;
    },
    () => calls.push("marked"),
    () => calls.push("prompt"),
  );
  await vi.advanceTimersByTimeAsync(0);
  expect(calls).toEqual(["mark", "prompt"]);
  answer = 1_000;
  await vi.advanceTimersByTimeAsync(30_000);
  expect(calls).toEqual(["mark", "prompt", "mark", "marked", "prompt"]);
  stop();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(calls).toHaveLength(5);
});

test("a page's writes to its row go one at a time, in order: each after the one before is answered, refused or not", async () => {
  const send = inTurn();
  const sent: string[] = [];
  const answers: Record<string, (ok: boolean) => void> = {};
  const write = (name: string) => () => {
    sent.push(name);
    return new Promise<string>((resolve, reject) => (answers[name] = (ok) => (ok ? resolve(name) : reject(new Error(name)))));
  };
  const first = send(write("mark in no session"));
  const second = send(write("mark in the session"));
  const third = send(write("leave"));
  expect(sent).toEqual(["mark in no session"]); // the first goes at once
  answers["mark in no session"](false);
  await expect(first).rejects.toThrow("mark in no session");
  expect(sent).toEqual(["mark in no session", "mark in the session"]);
  answers["mark in the session"](true);
  await expect(second).resolves.toBe("mark in the session");
  expect(sent).toHaveLength(3);
  answers.leave(true);
  await third;
  // With nothing on its way, a write goes at once again.
  void send(write("mark again"));
  expect(sent.at(-1)).toBe("mark again");
});

test("a member's presence identity is their id alone", () => {
  expect(presenceSelf({ id: "u-ada" })).toEqual({ user_id: "u-ada" });
});

test("membership ends on a delete, or a change to no role, of the page's own person only", () => {
  const change = { operation: "DELETE", room_id: "r", user_id: "u-ada", role: null } as const;
  expect(endsMembershipOf(change, "u-ada")).toBe(true);
  expect(endsMembershipOf(change, "u-bo")).toBe(false);
  expect(endsMembershipOf(change, null)).toBe(false);
  expect(endsMembershipOf({ ...change, operation: "UPDATE", role: "moderator" }, "u-ada")).toBe(false);
  expect(endsMembershipOf({ ...change, operation: "UPDATE", role: null }, "u-ada")).toBe(true);
});

test("the page says why it stopped", () => {
  expect(membershipEndedMessage(true, false)).toMatch(/^You're no longer a member of this room — .*stopped updating/);
  expect(membershipEndedMessage(false, false)).toMatch(/^You're no longer a member of this room — .*read along/);
  expect(membershipEndedMessage(true, true)).toMatch(/^You left this room/);
});
