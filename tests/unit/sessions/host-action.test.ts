// The host's one primary action at every state of the session, a post that played out included.
import { expect, test } from "vitest";
import { type HostView, hostPrimaryAction, playedOut } from "@/lib/sessions/host-action";

const view = (patch: Partial<HostView> = {}): HostView => ({
  hasPost: true,
  playing: false,
  positionSeconds: 10,
  duration: 120,
  queued: 0,
  armed: true,
  ...patch,
});

test("nothing loaded: play the queue when it has posts, else choose one", () => {
  expect(hostPrimaryAction(view({ hasPost: false, queued: 3 }))).toBe("queue");
  expect(hostPrimaryAction(view({ hasPost: false, queued: 0 }))).toBe("choose");
});

test("paused mid-post: play; playing: pause, or start listening while the page's sound waits for a click", () => {
  expect(hostPrimaryAction(view())).toBe("play");
  expect(hostPrimaryAction(view({ armed: false }))).toBe("play");
  expect(hostPrimaryAction(view({ playing: true }))).toBe("pause");
  expect(hostPrimaryAction(view({ playing: true, armed: false }))).toBe("listen");
});

test("a post that played out: the next in the queue, else play it again — never two actions at once", () => {
  expect(hostPrimaryAction(view({ positionSeconds: 120, queued: 2 }))).toBe("queue");
  expect(hostPrimaryAction(view({ positionSeconds: 119.8, queued: 0 }))).toBe("replay");
  expect(hostPrimaryAction(view({ positionSeconds: 120, queued: 0, armed: false }))).toBe("replay");
  expect(playedOut(view({ positionSeconds: 120, playing: true }))).toBe(false);
  expect(playedOut(view({ positionSeconds: 120, duration: null }))).toBe(false);
  expect(playedOut(view({ positionSeconds: 100 }))).toBe(false);
});
