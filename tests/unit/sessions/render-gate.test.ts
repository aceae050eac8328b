// The render gate: React hears of a session change after the change's other listeners, and only once
// a started player says it plays (or a longest wait passes) when one of them holds it.
import { describe, expect, test } from "vitest";
import { RenderGate } from "@/lib/sessions/render-gate";

const microtasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

function manualTimers() {
  const queued: { run: () => void; ms: number }[] = [];
  return {
    later: (run: () => void, ms: number) => void queued.push({ run, ms }),
    fire: () => queued.shift()?.run(),
    queued,
  };
}

describe("RenderGate", () => {
  test("unheld: the listener is told after the change's other listeners, within the same task", async () => {
    const timers = manualTimers();
    const gate = new RenderGate(timers.later);
    const order: string[] = [];
    const react = gate.pass(() => order.push("react"));
    react();
    order.push("player");
    expect(order).toEqual(["player"]);
    await microtasks();
    expect(order).toEqual(["player", "react"]);
    expect(timers.queued).toEqual([]);
  });

  test("a hold taken by a listener told after React's still holds the render until released", async () => {
    const timers = manualTimers();
    const gate = new RenderGate(timers.later);
    const order: string[] = [];
    const react = gate.pass(() => order.push("react"));
    react(); // React subscribed first
    const release = gate.hold(300); // the player, told second, starts the element held ready
    await microtasks();
    expect(order).toEqual([]);
    order.push("playing");
    release();
    expect(order).toEqual(["playing", "react"]);
    expect(timers.queued.map((t) => t.ms)).toEqual([300]);
    timers.fire(); // the longest wait passing later changes nothing
    expect(order).toEqual(["playing", "react"]);
  });

  test("without a release, the longest wait ends the hold", async () => {
    const timers = manualTimers();
    const gate = new RenderGate(timers.later);
    let renders = 0;
    const react = gate.pass(() => renders++);
    gate.hold(250);
    react();
    await microtasks();
    expect(renders).toBe(0);
    timers.fire();
    expect(renders).toBe(1);
  });

  test("a listener told several times during a hold renders once; holds taken meanwhile end with the first", async () => {
    const timers = manualTimers();
    const gate = new RenderGate(timers.later);
    let renders = 0;
    const react = gate.pass(() => renders++);
    const first = gate.hold(300);
    const second = gate.hold(300);
    react();
    react();
    await microtasks();
    first();
    expect(renders).toBe(1);
    second();
    expect(renders).toBe(1);
    react();
    await microtasks();
    expect(renders).toBe(2);
  });

  test("with the default timer, the longest wait is a real one", async () => {
    const gate = new RenderGate();
    let renders = 0;
    const react = gate.pass(() => renders++);
    gate.hold(20);
    react();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(renders).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(renders).toBe(1);
  });
});
