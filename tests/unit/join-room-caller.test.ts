// lib/rooms/join.ts when the join-room function cannot be reached at all: a typed error with a
// sentence to show, never a throw. (Its answers from the real function: tests/integration/join-room*.)
import net, { type AddressInfo } from "node:net";
import { createClient } from "@supabase/supabase-js";
import { expect, test } from "vitest";
import { joinRoom, recheckMembership } from "../../lib/rooms/join";

const roomId = "7b0f6d2e-4c1a-4f6e-9d53-2a1b3c4d5e6f";

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test("no server answering: joining and re-checking each return the offline error", async () => {
  const nowhere = createClient(`http://127.0.0.1:${await closedPort()}`, "anon-key", { auth: { persistSession: false } });
  const offline = {
    ok: false,
    error: { code: "offline", error: "We couldn't reach Cuepoint's server — check your connection and try again." },
  };
  expect(await joinRoom(nowhere, roomId)).toEqual(offline);
  expect(await recheckMembership(nowhere, roomId)).toEqual(offline);
});
