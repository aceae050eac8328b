// Auth conformance for the OAuth 2.1 server's client registry (GoTrue's /admin/oauth/clients),
// driven by supabase-js' auth.admin.oauth with the service role, against the running stack.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { admin, authFetch, client, createConfirmedUser, sql } from "./auth-helpers.ts";
import { anonKey, serviceRoleKey } from "./helpers/stack.ts";

const oauth = () => admin().auth.admin.oauth;
const name = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function storedHash(clientId: string): Promise<string | null> {
  const [row] = await sql<{ client_secret_hash: string | null }>("select client_secret_hash from auth.oauth_clients where id = $1", [
    clientId,
  ]);
  return row.client_secret_hash;
}

const sha256 = (secret: string) => createHash("sha256").update(secret).digest("base64url");

describe("registering clients", () => {
  test("a confidential client by default: its secret is shown once and kept only as SHA-256", async () => {
    const clientName = name("Confidential app");
    const { data, error } = await oauth().createClient({
      client_name: clientName,
      client_uri: "https://app.example/about",
      redirect_uris: ["https://app.example/callback", "http://localhost:3000/callback"],
    });
    expect(error).toBeNull();
    expect(data).toEqual({
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      client_type: "confidential",
      redirect_uris: ["https://app.example/callback", "http://localhost:3000/callback"],
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      client_name: clientName,
      client_uri: "https://app.example/about",
      registration_type: "manual",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await storedHash(data!.client_id)).toBe(sha256(data!.client_secret!));
    const fetched = await oauth().getClient(data!.client_id);
    expect(fetched.data).not.toHaveProperty("client_secret");
    expect(fetched.data).toMatchObject({ client_id: data!.client_id, client_name: clientName });
  });

  test("a public client (client_type public, or token_endpoint_auth_method none) has no secret", async () => {
    for (const params of [{ client_type: "public" as const }, { token_endpoint_auth_method: "none" }]) {
      const { data, error } = await oauth().createClient({
        client_name: name("Public app"),
        redirect_uris: ["myapp://callback"],
        ...params,
      } as never);
      expect(error).toBeNull();
      expect(data).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none", redirect_uris: ["myapp://callback"] });
      expect(data).not.toHaveProperty("client_secret");
      expect(await storedHash(data!.client_id)).toBeNull();
    }
    const post = await oauth().createClient({
      client_name: name("Post app"),
      redirect_uris: ["https://a.example/cb"],
      token_endpoint_auth_method: "client_secret_post",
    } as never);
    expect(post.data).toMatchObject({
      client_type: "confidential",
      token_endpoint_auth_method: "client_secret_post",
      client_secret: expect.any(String),
    });
  });

  test.each([
    [{}, "400: redirect_uris is required"],
    [{ redirect_uris: [] }, "400: redirect_uris is required"],
    [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, "400: redirect_uris cannot exceed 10 items"],
    [
      { redirect_uris: ["http://app.example/cb"] },
      "400: invalid redirect_uri 'http://app.example/cb': HTTP scheme only allowed for localhost",
    ],
    [
      { redirect_uris: ["https://app.example/cb#frag"] },
      "400: invalid redirect_uri 'https://app.example/cb#frag': fragment not allowed in redirect URI",
    ],
    [{ redirect_uris: ["/relative"] }, "400: invalid redirect_uri '/relative': must have scheme and host"],
    [{ redirect_uris: ["data://x/y"] }, "400: invalid redirect_uri 'data://x/y': scheme 'data' is not allowed for security reasons"],
    [
      { redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] },
      "400: grant_types must only contain 'authorization_code' and/or 'refresh_token'",
    ],
    [{ redirect_uris: ["https://a.example/cb"], client_uri: "not a url" }, "400: client_uri must be a valid URL"],
    [{ redirect_uris: ["https://a.example/cb"], logo_uri: "x".repeat(2049) }, "400: logo_uri cannot exceed 2048 characters"],
    [{ redirect_uris: ["https://a.example/cb"], client_type: "machine" }, "400: client_type must be 'public' or 'confidential'"],
    [
      { redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "private_key_jwt" },
      "400: token_endpoint_auth_method must be one of: [none client_secret_basic client_secret_post]",
    ],
    [
      { redirect_uris: ["https://a.example/cb"], client_type: "public", token_endpoint_auth_method: "client_secret_basic" },
      "client_type 'public' is inconsistent with token_endpoint_auth_method 'client_secret_basic' (expected client_type 'confidential')",
    ],
  ])("%j is refused: %s", async (params, message) => {
    const { data, error } = await oauth().createClient(params as never);
    expect(data).toBeNull();
    expect(error).toMatchObject({ status: 400, code: "validation_failed", message });
  });

  test("a body that is not the params' JSON is Invalid JSON body", async () => {
    for (const body of [
      "{",
      '{"redirect_uris": "https://a.example/cb"}',
      '{"client_name": 7, "redirect_uris": ["https://a.example/cb"]}',
    ]) {
      const response = await authFetch("/admin/oauth/clients", { method: "POST", body, bearer: serviceRoleKey, apiVersion: true });
      expect(response).toMatchObject({ status: 400, body: { code: "bad_json", message: "Invalid JSON body" } });
    }
  });
});

describe("managing clients", () => {
  test("list (newest first), update, regenerate the secret, delete", async () => {
    const first = await oauth().createClient({ client_name: name("First"), redirect_uris: ["https://one.example/cb"] });
    const second = await oauth().createClient({ client_name: name("Second"), redirect_uris: ["https://two.example/cb"] });
    const listed = await oauth().listClients();
    expect(listed.error).toBeNull();
    const ids = listed.data!.clients.map((c) => c.client_id);
    expect(ids.indexOf(second.data!.client_id)).toBeLessThan(ids.indexOf(first.data!.client_id));
    expect(listed.data!.clients.every((c) => !("client_secret" in c))).toBe(true);

    const id = first.data!.client_id;
    const updated = await oauth().updateClient(id, {
      client_name: "Renamed",
      redirect_uris: ["https://one.example/new"],
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "client_secret_post",
    } as never);
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({
      client_id: id,
      client_name: "Renamed",
      redirect_uris: ["https://one.example/new"],
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "client_secret_post",
    });
    const cleared = await oauth().updateClient(id, { client_name: "" });
    expect(cleared.data).not.toHaveProperty("client_name");
    expect((await oauth().updateClient(id, {})).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "No fields provided for update",
    });
    expect((await oauth().updateClient(id, { redirect_uris: [] })).error).toMatchObject({
      status: 400,
      message: "redirect_uris cannot be empty",
    });
    expect((await oauth().updateClient(id, { token_endpoint_auth_method: "none" } as never)).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message:
        "token_endpoint_auth_method 'none' is not valid for client_type 'confidential'; valid methods: [client_secret_basic client_secret_post]",
    });

    const before = await storedHash(id);
    const regenerated = await oauth().regenerateClientSecret(id);
    expect(regenerated.error).toBeNull();
    expect(regenerated.data!.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(regenerated.data!.client_secret).not.toBe(first.data!.client_secret);
    expect(await storedHash(id)).toBe(sha256(regenerated.data!.client_secret!));
    expect(await storedHash(id)).not.toBe(before);

    const publicClient = await oauth().createClient({
      client_name: name("Public"),
      redirect_uris: ["myapp://cb"],
      client_type: "public",
    } as never);
    expect((await oauth().regenerateClientSecret(publicClient.data!.client_id)).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Cannot regenerate secret for public client",
    });

    expect((await oauth().deleteClient(id)).error).toBeNull();
    expect((await oauth().getClient(id)).error).toMatchObject({
      status: 404,
      code: "oauth_client_not_found",
      message: "OAuth client not found",
    });
    expect((await oauth().deleteClient(id)).error).toMatchObject({ status: 404, code: "oauth_client_not_found" });
    expect((await oauth().listClients()).data!.clients.map((c) => c.client_id)).not.toContain(id);
    // Soft-deleted, as GoTrue keeps the row.
    expect(await sql("select deleted_at is not null as deleted from auth.oauth_clients where id = $1", [id])).toEqual([{ deleted: true }]);
    expect((await oauth().getClient("not-a-uuid")).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "invalid client_id format",
    });
  });

  test("only the service role may use the registry", async () => {
    const user = await createConfirmedUser("oauth-caller");
    const signedIn = client();
    await signedIn.auth.signInWithPassword({ email: user.email, password: user.password });
    const token = (await signedIn.auth.getSession()).data.session!.access_token;
    for (const bearer of [anonKey, token]) {
      for (const [method, path] of [
        ["GET", "/admin/oauth/clients"],
        ["POST", "/admin/oauth/clients"],
        ["POST", `/admin/oauth/clients/${user.id}/regenerate_secret`],
      ]) {
        const response = await authFetch(path, {
          method,
          bearer,
          apiVersion: true,
          ...(method === "POST" ? { body: '{"redirect_uris":["https://a.example/cb"]}' } : {}),
        });
        expect(response).toMatchObject({ status: 403, body: { code: "not_admin", message: "User not allowed" } });
      }
    }
  });
});
