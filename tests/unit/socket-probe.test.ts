// Back online, the live page asks its socket for a heartbeat so a dead socket is replaced at once;
// but a heartbeat still unanswered is given time first, since realtime-js would take a second one as
// a timeout and drop a socket that is alive (and with it the page's presence).
import { expect, test } from "vitest";
import { pendingHeartbeatGraceMs, probeSocketAfterOnline, type ProbedSocket } from "@/lib/realtime/socket-probe";

function socket(pending: string | null) {
  const state = { pendingHeartbeatRef: pending, sent: 0 };
  const live: ProbedSocket & { pendingHeartbeatRef: string | null } = {
    get pendingHeartbeatRef() {
      return state.pendingHeartbeatRef;
    },
    set pendingHeartbeatRef(ref) {
      state.pendingHeartbeatRef = ref;
    },
    sendHeartbeat: async () => void state.sent++,
  };
  const timers: { run: () => void; ms: number }[] = [];
  const probe = () => probeSocketAfterOnline(live, (run, ms) => timers.push({ run, ms }));
  return { state, probe, timers };
}

test("nothing pending: a heartbeat goes at once, and only once for the page's connections together", () => {
  const s = socket(null);
  s.probe();
  s.probe();
  expect(s.state.sent).toBe(1);
  expect(s.timers).toEqual([]);
});

test("a heartbeat sent while offline is answered soon after: the probe sends nothing", () => {
  const s = socket("12");
  s.probe();
  expect(s.state.sent).toBe(0);
  expect(s.timers.map((t) => t.ms)).toEqual([pendingHeartbeatGraceMs]);
  s.state.pendingHeartbeatRef = null; // the answer arrived
  s.timers[0].run();
  expect(s.state.sent).toBe(0);
});

test("the same heartbeat still unanswered after the grace: the probe asks, so a dead socket is replaced", () => {
  const s = socket("12");
  s.probe();
  s.timers[0].run();
  expect(s.state.sent).toBe(1);
});

test("answered, and the next regular heartbeat pending by then: the probe leaves it alone", () => {
  const s = socket("12");
  s.probe();
  s.state.pendingHeartbeatRef = "13";
  s.timers[0].run();
  expect(s.state.sent).toBe(0);
});
