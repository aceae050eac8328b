// The page's estimate of the server's clock: the sample with the shortest round trip wins; a
// congested re-estimate does not replace a good one; failed samples are skipped.
import { describe, expect, test, vi } from "vitest";
import { ServerClock, bestEstimate, estimateOf } from "@/lib/sessions/clock";

describe("estimates", () => {
  test("the server read its clock at the round trip's midpoint", () => {
    expect(estimateOf({ sentAt: 1_000, receivedAt: 1_040, serverMs: 5_020 })).toEqual({ offsetMs: 4_000, rttMs: 40 });
  });

  test("of several samples, the shortest round trip is kept", () => {
    const best = bestEstimate([
      { sentAt: 0, receivedAt: 300, serverMs: 10_400 }, // slow and skewed
      { sentAt: 1_000, receivedAt: 1_010, serverMs: 11_005 },
      { sentAt: 2_000, receivedAt: 2_100, serverMs: 12_000 },
    ]);
    expect(best).toEqual({ offsetMs: 10_000, rttMs: 10 });
  });

  test("no usable sample, no estimate", () => {
    expect(bestEstimate([])).toBeNull();
    expect(bestEstimate([{ sentAt: 5, receivedAt: 1, serverMs: 9 }])).toBeNull();
    expect(bestEstimate([{ sentAt: 1, receivedAt: 5, serverMs: Number.NaN }])).toBeNull();
  });
});

/** A fake server `offset` ms ahead, answering after the round trips given (ms), on a fake local clock. */
function fakeServer(offset: number, trips: number[]) {
  let local = 1_000_000;
  const now = () => local;
  const ask = async () => {
    const trip = trips.shift();
    if (trip === undefined || trip < 0) throw new Error("offline");
    local += trip / 2;
    const server = local + offset;
    local += trip / 2;
    return server;
  };
  return { now, ask, advance: (ms: number) => (local += ms) };
}

describe("ServerClock", () => {
  test("serverNow is the local clock until estimated, then the server's", async () => {
    const server = fakeServer(2_500, [30, 8, 50]);
    const clock = new ServerClock(server.ask, { samples: 3, now: server.now });
    expect(clock.ready).toBe(false);
    expect(clock.serverNow()).toBe(server.now());
    await clock.estimate();
    expect(clock.ready).toBe(true);
    expect(clock.lastEstimate?.rttMs).toBe(8);
    expect(clock.serverNow() - server.now()).toBeCloseTo(2_500, 6);
  });

  test("a moment of the local clock noted before the estimate (a join) maps to the server's time once estimated", async () => {
    const server = fakeServer(-4_000, [10]);
    const clock = new ServerClock(server.ask, { samples: 1, now: server.now });
    const joinedAt = server.now();
    expect(clock.serverTimeAt(joinedAt)).toBe(joinedAt);
    server.advance(60_000);
    await clock.estimate();
    expect(clock.serverTimeAt(joinedAt)).toBeCloseTo(joinedAt - 4_000, 6);
  });

  test("started: re-estimating on a timer from start() until stop()", () => {
    vi.useFakeTimers();
    try {
      const server = fakeServer(0, [1, 1, 1]);
      const ask = vi.fn(server.ask);
      const clock = new ServerClock(ask, { samples: 1, everyMs: 1_000, now: server.now });
      expect(clock.started).toBe(false);
      clock.start();
      expect(clock.started).toBe(true);
      expect(ask).toHaveBeenCalledTimes(1);
      clock.stop();
      expect(clock.started).toBe(false);
      vi.advanceTimersByTime(5_000);
      expect(ask).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a re-estimate in a congested moment does not replace a better one", async () => {
    const server = fakeServer(100, [5, 5, 400, 300]);
    const clock = new ServerClock(server.ask, { samples: 2, now: server.now });
    await clock.estimate();
    expect(clock.lastEstimate?.rttMs).toBe(5);
    await clock.estimate();
    expect(clock.lastEstimate?.rttMs).toBe(5);
  });

  test("samples that fail (offline) are skipped; the others count", async () => {
    const server = fakeServer(-700, [-1, 12, -1]);
    const clock = new ServerClock(server.ask, { samples: 3, now: server.now });
    const estimate = await clock.estimate();
    expect(estimate).toEqual({ offsetMs: -700, rttMs: 12 });
  });

  test("all samples failing keeps the previous estimate", async () => {
    const server = fakeServer(50, [10, -1]);
    const clock = new ServerClock(server.ask, { samples: 1, now: server.now });
    await clock.estimate();
    await clock.estimate();
    expect(clock.lastEstimate).toEqual({ offsetMs: 50, rttMs: 10 });
  });
});
