// Taking over from a host who left, on fake timers, in the orders of events a real room sees: the
// successor claims at once and again while the server's quiet window runs; a member just back from
// offline (whose first claim does not get through) keeps trying; two claimers, one refused; the one
// ahead leaving mid-claim; the host back before the window ends; a socket that drops and comes back
// just as the host leaves, whose person keeps their place.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { sessionMessages } from "@/lib/sessions/rpc";
import { claimGiveUpMs, claimRetryMs, departedGraceMs, HostSuccession, type SuccessionView } from "@/lib/sessions/succession";
import { fallbackStepMs, hostQuietMs } from "@/lib/sessions/successor";
import type { ListenerMeta, SessionActionResult, SessionRow } from "@/lib/sessions/types";
import { listenerMeta } from "../../helpers/listeners";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const person = (user_id: string, since: number) => listenerMeta(user_id, "member", since);

const bo = person("bo", 100);
const dee = person("dee", 300);
const cy = person("cy", 200);

const row = (hostId: string | null, version = 2, ended = false): SessionRow =>
  ({ id: "s1", host_id: hostId, version, ended_at: ended ? "2026-11-28T00:00:00Z" : null }) as unknown as SessionRow;

type Answer = SessionActionResult<SessionRow>;

/**
 * A fake server for one session, answering claims as claim_session_host does (the session as it then
 * is): hosted by `host` until a claim succeeds; `quietUntil` is when the quiet window ends (claims
 * before it answer the host still there); `offlineUntil` makes requests fail before it.
 */
function server(host: string | null, { quietUntil = 0, offlineUntil = 0 } = {}) {
  const state = { host, version: 1, quietUntil, offlineUntil, claims: [] as { by: string; at: number; answer: Answer }[] };
  const claimAs =
    (by: string) =>
    async (_sessionId: string, expected: string | null): Promise<Answer> => {
      await Promise.resolve();
      const at = Date.now();
      let answer: Answer;
      if (at < state.offlineUntil) answer = { ok: false, error: sessionMessages.unreachable };
      else if (state.host !== expected || at < state.quietUntil) answer = { ok: true, data: row(state.host, state.version) };
      else {
        state.host = by;
        state.version++;
        answer = { ok: true, data: row(by, state.version) };
      }
      state.claims.push({ by, at, answer });
      return answer;
    };
  return { state, claimAs };
}

/** One page's engine, with the calls it makes. */
function page(selfId: string, claim: (sessionId: string, expected: string | null) => Promise<Answer>) {
  const calls = { claimed: [] as SessionRow[], resyncs: 0 };
  const engine = new HostSuccession({ claim, claimed: (r) => calls.claimed.push(r), resync: () => void calls.resyncs++ });
  const see = (hostId: string | null, listeners: ListenerMeta[], extra: Partial<SuccessionView> = {}) =>
    engine.update({ sessionId: "s1", hostId, selfId, listeners, presenceSynced: true, live: true, ...extra });
  return { engine, calls, see };
}

test("the host's page closes (it said so): the successor claims at once and gets the place", async () => {
  const s = server("cy");
  const b = page("bo", s.claimAs("bo"));
  b.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(0);
  expect(s.state.host).toBe("bo");
  expect(b.calls.claimed.map((r) => r.host_id)).toEqual(["bo"]);
  expect(b.engine.claiming).toBe(false);
});

test("the host vanished without a word: the successor tries each second until the quiet window has passed", async () => {
  const s = server("cy", { quietUntil: Date.now() + hostQuietMs });
  const b = page("bo", s.claimAs("bo"));
  b.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(hostQuietMs - 1);
  expect(s.state.host).toBe("cy");
  expect(s.state.claims.length).toBe(Math.ceil(hostQuietMs / claimRetryMs));
  await vi.advanceTimersByTimeAsync(claimRetryMs);
  expect(s.state.host).toBe("bo");
});

test("a member just back from offline, whose first claims do not get through, keeps trying and takes over", async () => {
  // The claim's request fails for 3 s after Bo is back (a token still being refreshed, a socket reopening).
  const s = server("cy", { offlineUntil: Date.now() + 3_000 });
  const b = page("bo", s.claimAs("bo"));
  b.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(0);
  expect(s.state.claims[0].answer).toEqual({ ok: false, error: sessionMessages.unreachable });
  expect(b.calls.resyncs).toBe(1); // the page fetches the session, in case it is stale
  await vi.advanceTimersByTimeAsync(6_000);
  expect(s.state.host).toBe("bo");
  // Backing off, 1 s then 2 s: tried at 0 and 1 s, through at 3 s.
  expect(s.state.claims.map((c) => [c.at - s.state.claims[0].at, c.answer.ok])).toEqual([
    [0, false],
    [1_000, false],
    [3_000, true],
  ]);
});

test("a claim refused for a reason that is not the quiet window (a server error) is tried again too", async () => {
  let refusals = 2;
  const s = server("cy");
  const claim = s.claimAs("bo");
  const b = page("bo", (id, expected) =>
    refusals-- > 0 ? Promise.resolve({ ok: false, error: sessionMessages.failed }) : claim(id, expected),
  );
  b.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(5_000);
  expect(s.state.host).toBe("bo");
});

test("the next in line waits for the window and the successor's chance, so the successor is host and the other never claims", async () => {
  const s = server("cy", { quietUntil: Date.now() + hostQuietMs });
  const b = page("bo", s.claimAs("bo"));
  const d = page("dee", s.claimAs("dee"));
  b.see("cy", [bo, dee]);
  d.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(hostQuietMs + claimRetryMs);
  expect(s.state.host).toBe("bo");
  // Bo's new host reaches Dee's page: Dee's plan ends before its turn.
  d.see("bo", [bo, dee]);
  await vi.advanceTimersByTimeAsync(hostQuietMs + 3 * fallbackStepMs);
  expect(s.state.claims.filter((c) => c.by === "dee")).toEqual([]);
});

test("two claim at once: one gets the place; the other is answered who hosts now (no error) and stops", async () => {
  const s = server("cy");
  const b = page("bo", s.claimAs("bo"));
  // Dee's page does not see Bo (its presence came late): Dee thinks she is first, and claims too.
  const d = page("dee", s.claimAs("dee"));
  b.see("cy", [bo, dee]);
  d.see("cy", [dee]);
  await vi.advanceTimersByTimeAsync(0);
  expect(s.state.host).toBe("bo");
  expect(s.state.claims.find((c) => c.by === "dee")?.answer).toEqual({ ok: true, data: row("bo", 2) });
  // The answer names Bo: Dee's page takes it as the session's row, with nothing to fetch again.
  expect(d.calls.claimed.map((r) => r.host_id)).toEqual(["bo"]);
  expect(d.calls.resyncs).toBe(0);
  d.see("bo", [bo, dee]); // the row received
  await vi.advanceTimersByTimeAsync(30_000);
  expect(s.state.claims.filter((c) => c.by === "dee").length).toBe(1);
});

test("the successor leaves while claiming: the next in line takes over at its turn", async () => {
  const s = server("cy", { quietUntil: Date.now() + hostQuietMs });
  const b = page("bo", s.claimAs("bo"));
  const d = page("dee", s.claimAs("dee"));
  b.see("cy", [bo, dee]);
  d.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(2_000);
  b.engine.stop(); // Bo closes the page mid-claim
  d.see("cy", [dee]);
  await vi.advanceTimersByTimeAsync(hostQuietMs + fallbackStepMs - 2_000);
  expect(s.state.host).toBe("dee");
  expect(s.state.claims.filter((c) => c.by === "bo").length).toBeLessThanOrEqual(3);
});

test("the host is back before the window ends: nobody claims again", async () => {
  const s = server("cy", { quietUntil: Date.now() + 60_000 });
  const b = page("bo", s.claimAs("bo"));
  b.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(2_500);
  const tried = s.state.claims.length;
  expect(tried).toBeGreaterThan(0);
  b.see("cy", [bo, cy, dee]);
  await vi.advanceTimersByTimeAsync(30_000);
  expect(s.state.claims.length).toBe(tried);
  expect(s.state.host).toBe("cy");
});

test("a host who keeps their heartbeat without presence: the claims stop after a while, and the page fetches the session", async () => {
  const s = server("cy", { quietUntil: Infinity });
  const b = page("bo", s.claimAs("bo"));
  b.see("cy", [bo]);
  await vi.advanceTimersByTimeAsync(claimGiveUpMs + 5_000);
  const tried = s.state.claims.length;
  expect(tried).toBeLessThanOrEqual(claimGiveUpMs / claimRetryMs + 1);
  expect(b.calls.resyncs).toBe(1);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(s.state.claims.length).toBe(tried);
});

test("nothing is claimed before presence is heard, while the channel is down, or by a page that is not among the listeners", async () => {
  const s = server("cy");
  const b = page("bo", s.claimAs("bo"));
  b.see("cy", [], { presenceSynced: false });
  b.see("cy", [bo], { live: false });
  b.see("cy", [dee]);
  await vi.advanceTimersByTimeAsync(20_000);
  expect(s.state.claims).toEqual([]);
  // The channel is back and Bo's presence with it: Bo claims at once.
  b.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(0);
  expect(s.state.host).toBe("bo");
});

test("a page's presence updates while it waits do not put its claim off", async () => {
  const s = server("cy");
  const d = page("dee", s.claimAs("dee"));
  d.see("cy", [bo, dee]);
  const turn = hostQuietMs + fallbackStepMs;
  for (let t = 0; t < turn; t += 1_000) {
    await vi.advanceTimersByTimeAsync(1_000);
    d.see("cy", [{ ...bo }, { ...dee, following: t % 2000 === 0 }]);
  }
  await vi.advanceTimersByTimeAsync(0);
  expect(s.state.claims.map((c) => c.at)).toEqual([expect.any(Number)]);
  expect(s.state.host).toBe("dee");
});

test("a claim answered after the page has closed changes nothing on the page", async () => {
  let answer!: (value: Answer) => void;
  const b = page("bo", () => new Promise<Answer>((resolve) => (answer = resolve)));
  b.see("cy", [bo]);
  await vi.advanceTimersByTimeAsync(0);
  b.engine.stop();
  answer({ ok: true, data: row("bo") });
  await vi.advanceTimersByTimeAsync(0);
  expect(b.calls.claimed).toEqual([]);
});

test("the one here longest is back from offline and their socket reopens just as the host leaves: the next in line waits, and they take over", async () => {
  // What the e2e saw: back online, Bo's socket closed and reopened a second later; Cy left meanwhile.
  const s = server("cy");
  const b = page("bo", s.claimAs("bo"));
  const d = page("dee", s.claimAs("dee"));
  d.see("cy", [bo, cy, dee]);
  b.see("cy", [bo, cy, dee]);
  b.see("cy", [], { live: false }); // Bo's socket closes
  d.see("cy", [cy, dee]); // …and Dee hears Bo go
  await vi.advanceTimersByTimeAsync(150);
  d.see("cy", [dee]); // Cy leaves
  await vi.advanceTimersByTimeAsync(1_000);
  expect(s.state.claims).toEqual([]); // Dee does not jump ahead of Bo
  b.see("cy", [bo, dee]); // Bo's new socket has joined: Cy is gone
  d.see("cy", [bo, dee]);
  await vi.advanceTimersByTimeAsync(0);
  expect(s.state.host).toBe("bo");
  b.see("bo", [bo, dee]);
  d.see("bo", [bo, dee]);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(s.state.claims.map((c) => c.by)).toEqual(["bo"]);
});

test("someone who left for good keeps their place only for the grace: then the next in line claims", async () => {
  const s = server("cy");
  const d = page("dee", s.claimAs("dee"));
  const start = Date.now();
  d.see("cy", [bo, cy, dee]);
  d.see("cy", [cy, dee]); // Bo closes the page
  await vi.advanceTimersByTimeAsync(6_000);
  d.see("cy", [dee]); // Cy leaves: Dee would wait her turn behind Bo (7 s), but Bo's grace ends first
  await vi.advanceTimersByTimeAsync(departedGraceMs - 6_000 - 1);
  expect(s.state.claims).toEqual([]);
  await vi.advanceTimersByTimeAsync(100);
  // When the grace ends (a timer's 0 ms is 1 ms on fake timers), before her own turn at 13 s.
  expect(s.state.claims.map((c) => [c.by, Math.floor((c.at - start) / 10) * 10])).toEqual([["dee", departedGraceMs]]);
  expect(s.state.host).toBe("dee");
});

test("what a page hears while its own channel is down does not count as people leaving", async () => {
  const s = server("cy");
  const d = page("dee", s.claimAs("dee"));
  d.see("cy", [bo, cy, dee]);
  d.see("cy", [], { live: false });
  await vi.advanceTimersByTimeAsync(departedGraceMs * 2);
  d.see("cy", [bo, dee]); // back: Cy has gone, Bo is here and ahead
  await vi.advanceTimersByTimeAsync(hostQuietMs + fallbackStepMs - 1);
  expect(s.state.claims).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(s.state.host).toBe("dee"); // Bo never claimed (no engine of his here): Dee's turn came
});

test("a claim answered with the session ended stops claiming and hands the ended row to the page", async () => {
  const claims: string[] = [];
  const b = page("bo", async (_id, expected) => {
    claims.push(String(expected));
    return { ok: true, data: row("cy", 3, true) };
  });
  b.see("cy", [bo]);
  await vi.advanceTimersByTimeAsync(0);
  expect(b.calls.claimed.map((r) => r.ended_at !== null)).toEqual([true]);
  await vi.advanceTimersByTimeAsync(30_000);
  expect(claims).toEqual(["cy"]);
});

test("claimOutcome reads the server's answer", async () => {
  const { claimOutcome } = await import("@/lib/sessions/succession");
  expect(claimOutcome(row("bo"), "bo", "cy")).toBe("hosting");
  expect(claimOutcome(row("cy"), "bo", "cy")).toBe("still-here");
  expect(claimOutcome(row("dee"), "bo", "cy")).toBe("taken");
  expect(claimOutcome(row(null), "bo", "cy")).toBe("taken");
  expect(claimOutcome(row("cy", 2, true), "bo", "cy")).toBe("ended");
});
