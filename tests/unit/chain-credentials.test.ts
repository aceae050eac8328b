import { createThirdwebClient } from "thirdweb";
import { describe, expect, test } from "vitest";
import { missingCredentialsMessage, resolveChainCredentials, tokenSecretNeedsClientIdMessage } from "../../lib/chain/credentials";
import { clientIdFromSecretKey, serverChainCredentials } from "../../lib/chain/server-credentials";
import { serverThirdwebClient } from "../../lib/chain/server";

const tokenSecret = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZWFtIn0.c2lnbmF0dXJl";
const plainSecret = "plain-secret-key-0123456789";

describe("the thirdweb client rule", () => {
  test("neither clientId nor secretKey: the seed's exact message", () => {
    expect(resolveChainCredentials({}, clientIdFromSecretKey)).toEqual({ ok: false, error: "clientId or secretKey must be provided" });
    expect(missingCredentialsMessage).toBe("clientId or secretKey must be provided");
  });

  test("blank values count as absent", () => {
    expect(resolveChainCredentials({ clientId: "  ", secretKey: "" }, clientIdFromSecretKey)).toEqual({
      ok: false,
      error: missingCredentialsMessage,
    });
  });

  test("a clientId alone is enough (the browser's case)", () => {
    expect(resolveChainCredentials({ clientId: "abc123" }, clientIdFromSecretKey)).toEqual({ ok: true, clientId: "abc123" });
  });

  test("a secretKey in token form needs a clientId too", () => {
    expect(resolveChainCredentials({ secretKey: tokenSecret }, clientIdFromSecretKey)).toEqual({
      ok: false,
      error: tokenSecretNeedsClientIdMessage,
    });
    expect(resolveChainCredentials({ clientId: "abc123", secretKey: tokenSecret }, clientIdFromSecretKey)).toEqual({
      ok: true,
      clientId: "abc123",
      secretKey: tokenSecret,
    });
  });

  test("a plain secretKey alone derives the clientId", () => {
    const resolved = resolveChainCredentials({ secretKey: plainSecret }, clientIdFromSecretKey);
    expect(resolved).toEqual({ ok: true, clientId: clientIdFromSecretKey(plainSecret), secretKey: plainSecret });
    expect(clientIdFromSecretKey(plainSecret)).toMatch(/^[0-9a-f]{32}$/);
  });

  test("an explicit clientId wins over the derived one", () => {
    expect(resolveChainCredentials({ clientId: "mine", secretKey: plainSecret }, clientIdFromSecretKey)).toMatchObject({
      clientId: "mine",
    });
  });

  test("agrees with thirdweb's own createThirdwebClient on every branch", () => {
    const cases = [
      {},
      { clientId: "abc" },
      { secretKey: plainSecret },
      { secretKey: tokenSecret },
      { clientId: "abc", secretKey: tokenSecret },
      { clientId: "abc", secretKey: plainSecret },
    ];
    for (const input of cases) {
      const ours = resolveChainCredentials(input, clientIdFromSecretKey);
      let theirs: { ok: true; clientId: string } | { ok: false; error: string };
      try {
        theirs = { ok: true, clientId: createThirdwebClient(input as Parameters<typeof createThirdwebClient>[0]).clientId };
      } catch (error) {
        theirs = { ok: false, error: (error as Error).message };
      }
      expect(ours.ok ? { ok: true, clientId: ours.clientId } : ours).toEqual(theirs);
    }
  });

  test("the server client reads THIRDWEB_SECRET_KEY and NEXT_PUBLIC_THIRDWEB_CLIENT_ID", () => {
    expect(serverChainCredentials({})).toEqual({ ok: false, error: missingCredentialsMessage });
    const built = serverThirdwebClient({ THIRDWEB_SECRET_KEY: plainSecret });
    expect(built.ok && built.client.clientId).toBe(clientIdFromSecretKey(plainSecret));
  });
});

describe("the browser's thirdweb client", () => {
  test("with a clientId it is created for that clientId", async () => {
    const { browserThirdwebClient } = await import("../../lib/chain/browser");
    const chain = browserThirdwebClient("cuepoint-e2e-local");
    expect(chain.ok && chain.client.clientId).toBe("cuepoint-e2e-local");
  });

  test("without one, wallet features are off with the seed's exact message", async () => {
    const { browserThirdwebClient } = await import("../../lib/chain/browser");
    expect(browserThirdwebClient(null)).toEqual({ ok: false, error: "clientId or secretKey must be provided" });
    expect(browserThirdwebClient("   ")).toEqual({ ok: false, error: "clientId or secretKey must be provided" });
  });
});
