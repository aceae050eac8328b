// One name per person: the display name first, the ENS name of a linked wallet second.
import { expect, test } from "vitest";
import { personName } from "@/lib/people/names";

test("the display name leads; the ENS name is the second line", () => {
  expect(personName({ display_name: "Grace Hopper", ens_name: "grace.eth" })).toEqual({ name: "Grace Hopper", secondary: "grace.eth" });
  expect(personName({ display_name: "Grace Hopper", ens_name: null })).toEqual({ name: "Grace Hopper", secondary: null });
});

test("an ENS name the same as the display name is not shown twice; a missing name falls back", () => {
  expect(personName({ display_name: "grace.eth", ens_name: "Grace.eth" })).toEqual({ name: "grace.eth", secondary: null });
  expect(personName({ display_name: " ", username: "grace" })).toEqual({ name: "@grace", secondary: null });
  expect(personName(null)).toEqual({ name: "Someone", secondary: null });
});

test("comments go by the same rule", async () => {
  const { authorName } = await import("@/components/moments/names");
  expect(authorName({ author: { display_name: "Grace Hopper" } } as never)).toBe("Grace Hopper");
  expect(authorName({ author: null } as never)).toBe("Someone");
});
