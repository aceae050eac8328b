// Recovery codes against the running backend, tried as an attacker would: supabase-js sessions made
// with a password alone (aal1), calling REST directly and the server's own recovery path
// (lib/auth/recovery.ts, the code the sign-in form's action runs). Another account's code, a used
// code and a guessed one sign nobody in; guessing runs into the limit; a signed-out caller gets
// nothing; the table is out of every client's reach. The right code, once, turns two-factor off.
import type { SupabaseClient } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { makeRecoveryCodes, redeemRecoveryCode } from "@/lib/auth/recovery";
import { hashRecoveryCode, normaliseRecoveryCode, recoveryMessages } from "@/lib/auth/recovery-codes";
import type { Database } from "@/types/database";
import { anonClient } from "../helpers/stack";
import { clearOfStepEnd, totp } from "../helpers/totp";
import { admin, signedInUser } from "../helpers/wallets";

type Client = SupabaseClient<Database>;
const typed = (client: SupabaseClient) => client as unknown as Client;
const adminClient = typed(admin);
const password = "correct-horse-battery";

/** A new account with an authenticator and its ten codes (made as /account makes them), and a password-only session. */
async function enrolledWithCodes(label: string) {
  const person = await signedInUser(label);
  const { data: factor, error } = await person.client.auth.mfa.enroll({ factorType: "totp" });
  if (error || !factor) throw error ?? new Error("no factor");
  await clearOfStepEnd();
  expect((await person.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: totp(factor.totp.secret, -1) })).error).toBeNull();
  const codes = await makeRecoveryCodes(typed(person.client), person.id);
  if (!codes.ok) throw new Error(codes.error);
  const aal1 = anonClient();
  expect((await aal1.auth.signInWithPassword({ email: person.email, password })).error).toBeNull();
  expect((await aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
  return { ...person, factorId: factor.id, secret: factor.totp.secret, codes: codes.data, aal1 };
}

const hashOf = (userId: string, code: string) => {
  const checked = normaliseRecoveryCode(code);
  if ("error" in checked) throw new Error(checked.error);
  return hashRecoveryCode(userId, checked.code);
};

describe("recovery codes", () => {
  test("ten codes are made only with a fresh authenticator code, and no client reads or writes the table", async () => {
    const person = await enrolledWithCodes("rc-make");
    expect(person.codes).toHaveLength(10);
    expect(new Set(person.codes).size).toBe(10);
    // The password alone makes no new set (which would void the owner's).
    const again = await makeRecoveryCodes(typed(person.aal1), person.id);
    expect(again).toEqual({ ok: false, error: "Enter a code from your authenticator app first, then make new recovery codes" });
    // Signed out: nothing to call.
    const anon = anonClient();
    expect((await anon.rpc("replace_recovery_codes", { code_hashes: [] })).error).not.toBeNull();
    expect((await anon.rpc("recovery_codes_status")).error).not.toBeNull();
    // The table is not in the API, for anyone.
    for (const client of [anon, person.client, person.aal1]) {
      expect((await client.schema("private").from("recovery_codes").select("*")).data).toBeNull();
      expect((await client.from("recovery_codes").select("*")).data).toBeNull();
    }
    expect((await admin.schema("private").from("recovery_codes").select("*")).data).toBeNull();
    expect((await person.client.rpc("recovery_codes_status")).data).toEqual([{ codes_left: 10, recovered_at: null }]);
  });

  test("another account's code, a guessed one and a signed-out caller get nothing; the right code works once and turns two-factor off", async () => {
    const victim = await enrolledWithCodes("rc-victim");
    const attacker = await enrolledWithCodes("rc-attacker");

    // Signed out: the database refuses before looking at anything.
    const anon = anonClient();
    const anonTry = await anon.rpc("redeem_recovery_code", { code_hash: hashOf(victim.id, victim.codes[0]) });
    expect(anonTry.data).toBeNull();
    expect(anonTry.error).not.toBeNull();
    expect(await redeemRecoveryCode(typed(anon), adminClient, victim.id, victim.codes[0])).toMatchObject({ ok: false });

    // The attacker, signed in to their own account, presents the victim's code both ways: as their
    // own (hashed with their id, as the app does) and hashed with the victim's id through REST.
    expect(await redeemRecoveryCode(typed(attacker.aal1), adminClient, attacker.id, victim.codes[0])).toEqual({
      ok: false,
      error: { message: recoveryMessages.wrong, field: true },
    });
    expect((await attacker.aal1.rpc("redeem_recovery_code", { code_hash: hashOf(victim.id, victim.codes[0]) })).data).toBe(false);
    // …and the victim's id with their own session changes nothing: the function acts for the caller only.
    expect(await redeemRecoveryCode(typed(attacker.aal1), adminClient, victim.id, victim.codes[0])).toEqual({
      ok: false,
      error: { message: recoveryMessages.wrong, field: true },
    });
    expect((await admin.auth.admin.mfa.listFactors({ userId: victim.id })).data?.factors).toHaveLength(1);

    // The victim (password-only session) uses a code, typed loosely: two-factor goes off.
    const loose = ` ${victim.codes[0].toLowerCase().replace(/-/g, " ")} `;
    expect(await redeemRecoveryCode(typed(victim.aal1), adminClient, victim.id, loose)).toEqual({ ok: true, data: null });
    expect((await admin.auth.admin.mfa.listFactors({ userId: victim.id })).data?.factors).toEqual([]);
    const refreshed = await victim.aal1.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((await victim.aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
    expect((await victim.aal1.rpc("recovery_codes_status")).data).toEqual([{ codes_left: 0, recovered_at: expect.any(String) }]);

    // The same code again, or any other of the set: refused (the account has no two-factor now).
    for (const code of [victim.codes[0], victim.codes[1]]) {
      expect(await redeemRecoveryCode(typed(victim.aal1), adminClient, victim.id, code)).toEqual({
        ok: false,
        error: { message: "Two-factor authentication is off for this account, so it has no recovery codes", field: false },
      });
    }
    // The attacker's own account kept its authenticator and all ten codes.
    expect((await admin.auth.admin.mfa.listFactors({ userId: attacker.id })).data?.factors).toHaveLength(1);
    expect((await attacker.client.rpc("recovery_codes_status")).data).toEqual([{ codes_left: 10, recovered_at: null }]);
  });

  test("a used code is refused while the authenticator stays, and guessing runs into the limit with the wait in words", async () => {
    const person = await enrolledWithCodes("rc-guess");
    const first = await person.aal1.rpc("redeem_recovery_code", { code_hash: hashOf(person.id, person.codes[0]) });
    expect(first).toMatchObject({ data: true, error: null });
    const reuse = await person.aal1.rpc("redeem_recovery_code", { code_hash: hashOf(person.id, person.codes[0]) });
    expect(reuse).toMatchObject({ data: false, error: null });

    // Three more wrong tries are answered; the sixth try in 15 minutes is a 429, even with a right code.
    for (const guess of ["AAAA-AAAA-AAAA-AAAA", "BBBB-BBBB-BBBB-BBBB", "CCCC-CCCC-CCCC-CCCC"]) {
      expect(await redeemRecoveryCode(typed(person.aal1), adminClient, person.id, guess)).toEqual({
        ok: false,
        error: { message: recoveryMessages.wrong, field: true },
      });
    }
    const limited = await person.aal1.rpc("redeem_recovery_code", { code_hash: hashOf(person.id, person.codes[1]) });
    expect(limited.status).toBe(429);
    expect(limited.error?.message).toMatch(/^Too many recovery codes tried — try again in 1[45] minutes$/);
    expect(await redeemRecoveryCode(typed(person.aal1), adminClient, person.id, person.codes[1])).toEqual({
      ok: false,
      error: { message: expect.stringMatching(/^Too many recovery codes tried/), field: true },
    });
    // Nothing was used or removed past the limit.
    expect((await admin.auth.admin.mfa.listFactors({ userId: person.id })).data?.factors).toHaveLength(1);
    expect((await person.client.rpc("recovery_codes_status")).data).toEqual([{ codes_left: 9, recovered_at: null }]);
  });

  test("new codes void the old ones at once", async () => {
    const person = await enrolledWithCodes("rc-regenerate");
    expect((await person.client.auth.mfa.challengeAndVerify({ factorId: person.factorId, code: totp(person.secret, 0) })).error).toBeNull();
    const fresh = await makeRecoveryCodes(typed(person.client), person.id);
    if (!fresh.ok) throw new Error(fresh.error);
    expect(fresh.data.some((code) => person.codes.includes(code))).toBe(false);
    expect((await person.aal1.rpc("redeem_recovery_code", { code_hash: hashOf(person.id, person.codes[2]) })).data).toBe(false);
    expect((await person.aal1.rpc("redeem_recovery_code", { code_hash: hashOf(person.id, fresh.data[2]) })).data).toBe(true);
  });
});
