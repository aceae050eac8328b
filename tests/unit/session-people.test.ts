// Listeners as the session page lists them, and comments made during a session: the schema takes
// a session, and the database's refusals read as what happened.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ListenersList, listenerName, orderListeners } from "@/components/sessions/listeners-list";
import { momentActionMessages, writeProblem } from "@/lib/moments/errors";
import type { Listener } from "@/lib/sessions/types";
import { newMomentSchema } from "@/lib/validation/moment";

const listener = (name: string, extra: Partial<Listener> = {}): Listener => ({
  user_id: `id-${name}`,
  username: name.toLowerCase(),
  display_name: name,
  avatar_path: null,
  ens_name: null,
  ens_avatar: null,
  role: "member",
  since: 0,
  following: true,
  isHost: false,
  isSelf: false,
  ...extra,
});

test("one name: the display name, whether or not they have an ENS name (which is their second line)", () => {
  expect(listenerName(listener("Ada", { ens_name: "ada.eth" }))).toBe("Ada");
  expect(listenerName(listener("Grace"))).toBe("Grace");
});

test("the host first, then the page's own person, then by name", () => {
  const ordered = orderListeners([listener("Zed"), listener("Bo", { isSelf: true }), listener("Al"), listener("Host", { isHost: true })]);
  expect(ordered.map((l) => l.display_name)).toEqual(["Host", "Bo", "Al", "Zed"]);
});

test("the list marks the host and those listening on their own", () => {
  const html = renderToStaticMarkup(
    createElement(ListenersList, {
      listeners: [
        listener("Ada", { isHost: true, ens_name: "ada.eth", ens_avatar: "https://example.test/a.png" }),
        listener("Grace", { following: false, isSelf: true }),
        listener("Lin"),
      ],
    }),
  );
  expect(html).toMatch(/>Ada<\/span><span class="[^"]*" data-ens-name="">ada.eth</);
  expect(html).toContain("Host");
  expect(html).toContain("https://example.test/a.png");
  expect(html).toContain("(you)");
  expect(html.match(/on their own/g)).toHaveLength(1);
  expect(html).toContain('Listening <span class="font-normal text-muted">(3)</span>');
});

test("a comment may name the session it was made in; a malformed session id is refused", () => {
  const base = { postId: "6f1d3c1e-8e44-4a3f-9d6b-0b8f2f0e2f11", atSeconds: 12, body: "now!" };
  expect(newMomentSchema.safeParse(base).success).toBe(true);
  expect(newMomentSchema.safeParse({ ...base, sessionId: "1b3a0c44-5f7e-4d2a-8a0e-9f3e2d1c0b9a" }).success).toBe(true);
  expect(newMomentSchema.safeParse({ ...base, sessionId: "not-a-session" }).success).toBe(false);
});

test("the session's refusals of a comment, in words", () => {
  expect(writeProblem({ code: "PT409", message: "This session has ended" }, "moment")).toEqual({
    message: momentActionMessages.sessionOver,
  });
  expect(writeProblem({ code: "PT409", message: "That post isn't playing in the session any more" }, "moment")).toEqual({
    message: momentActionMessages.sessionMovedOn,
  });
  expect(writeProblem({ code: "23503", message: "That session isn't in this room" }, "moment")).toEqual({
    message: momentActionMessages.sessionElsewhere,
  });
});

test("who may start a session: the owner and moderators, and members when the owner allows", async () => {
  const { mayStartSession } = await import("@/components/sessions/listen-together");
  expect(mayStartSession("owner", "moderators")).toBe(true);
  expect(mayStartSession("moderator", "moderators")).toBe(true);
  expect(mayStartSession("member", "moderators")).toBe(false);
  expect(mayStartSession("member", "members")).toBe(true);
  expect(mayStartSession(null, "members")).toBe(false);
});

test("the room page counts people listening once each, whatever their tabs", async () => {
  const { listenerCount, listeningText } = await import("@/components/sessions/session-banner");
  expect(listenerCount({ a: [{ user_id: "a" }, { user_id: "a" }], b: [{ user_id: "b" }] })).toBe(2);
  expect(listeningText(0)).toBe("nobody listening yet");
  expect(listeningText(1)).toBe("1 listening");
  expect(listeningText(3)).toBe("3 listening");
  expect(listeningText(null)).toBeNull();
});
