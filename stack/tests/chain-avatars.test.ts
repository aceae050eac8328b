// GET /chain/v1/avatars/<name>.svg: the images the local chain's avatar records point at.
import { describe, expect, test } from "vitest";
import { anonKey, apiUrl } from "./helpers/stack.ts";

const avatars = `${apiUrl}/chain/v1/avatars`;

describe("the stack's avatar images", () => {
  test("are public SVGs, one per name, with the name's initial", async () => {
    const response = await fetch(`${avatars}/grace.eth.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*aria-label="grace.eth">/);
    expect(svg).toContain(">G</text>");
    expect(await (await fetch(`${avatars}/ada.eth.svg`)).text()).not.toBe(svg);
  });

  test("answer HEAD with the headers only (as thirdweb's avatar check asks)", async () => {
    const response = await fetch(`${avatars}/ada.eth.svg`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(await response.text()).toBe("");
  });

  test("refuse other methods, and anything that is not a lowercase name's .svg", async () => {
    const post = await fetch(`${avatars}/ada.eth.svg`, { method: "POST", headers: { apikey: anonKey } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    for (const bad of ["ADA.eth.svg", "ada.svg", "ada.eth.png", "%3Cscript%3E.eth.svg", "..%2F..%2Fpackage.json", "a..eth.svg"]) {
      const withKey = await fetch(`${avatars}/${bad}`, { headers: { apikey: anonKey } });
      expect(withKey.status, bad).toBe(404);
      expect(await withKey.json()).toEqual({ message: "Not found: the chain route serves /chain/v1/avatars/<name>.svg" });
      // without an API key only the avatar images themselves are open
      expect((await fetch(`${avatars}/${bad}`)).status, bad).toBe(401);
    }
  });
});
