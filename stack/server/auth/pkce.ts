import { badRequest, notFound, unprocessable } from "./errors.ts";
import { randomUUID, s256 } from "./crypto.ts";
import type { Db } from "./users.ts";

export interface Challenge {
  codeChallenge: string;
  method: "s256" | "plain";
}

/** GoTrue's rule: code_challenge and code_challenge_method come together or not at all. */
export function parseChallenge(codeChallenge: string, codeChallengeMethod: string): Challenge | undefined {
  if (!codeChallenge && !codeChallengeMethod) return undefined;
  if (!codeChallenge || !codeChallengeMethod)
    throw badRequest("validation_failed", "PKCE flow requires code_challenge_method and code_challenge");
  const method = codeChallengeMethod.toLowerCase();
  if (method !== "s256" && method !== "plain")
    throw badRequest("validation_failed", `code challenge method not supported: ${codeChallengeMethod}`);
  if (codeChallenge.length < 43 || codeChallenge.length > 128) {
    throw badRequest("validation_failed", "code challenge has to be between 43 and 128 characters");
  }
  return { codeChallenge, method };
}

/** Authentication methods of auth.flow_state, as GoTrue names them. */
export type FlowMethod = "email/signup" | "magiclink" | "recovery" | "email_change" | "invite";

export async function createFlowState(db: Db, userId: string, challenge: Challenge, method: FlowMethod): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, 'email', now(), now(), $6)`,
    [randomUUID(), userId, randomUUID(), challenge.method, challenge.codeChallenge, method],
  );
}

/** After a PKCE email link is verified: the auth code the redirect carries (`?code=`). */
export async function issueAuthCode(db: Db, userId: string, method: FlowMethod): Promise<string> {
  const { rows } = await db.query<{ id: string; auth_code: string }>(
    "select id, auth_code from auth.flow_state where user_id = $1 and authentication_method = $2 order by created_at desc limit 1",
    [userId, method],
  );
  if (!rows[0]) throw notFound("flow_state_not_found", "invalid flow state, no valid flow state found");
  await db.query("update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1", [rows[0].id]);
  return rows[0].auth_code;
}

/** GoTrue's flow state lifetime (FlowStateExpiryDuration, 300 s). */
const flowStateLifetimeMs = 300_000;

/** grant_type=pkce: the flow state for the code, checked against the verifier, then consumed. */
export async function consumeAuthCode(db: Db, authCode: string, verifier: string): Promise<{ userId: string; method: FlowMethod }> {
  if (!authCode || !verifier)
    throw badRequest("validation_failed", "invalid request: both auth code and code verifier should be non-empty");
  const { rows } = await db.query<{
    id: string;
    user_id: string | null;
    code_challenge: string;
    code_challenge_method: string;
    authentication_method: string;
    created_at: Date;
    auth_code_issued_at: Date | null;
  }>("select * from auth.flow_state where auth_code = $1 for update", [authCode]);
  const flow = rows[0];
  if (!flow || !flow.user_id) throw notFound("flow_state_not_found", "invalid flow state, no valid flow state found");
  const since = (flow.auth_code_issued_at ?? flow.created_at).getTime();
  if (Date.now() - since > flowStateLifetimeMs) throw unprocessable("flow_state_expired", "invalid flow state, flow state has expired");
  const computed = flow.code_challenge_method === "s256" ? s256(verifier) : verifier;
  if (computed !== flow.code_challenge)
    throw badRequest("bad_code_verifier", "code challenge does not match previously saved code verifier");
  await db.query("delete from auth.flow_state where id = $1", [flow.id]);
  return { userId: flow.user_id, method: flow.authentication_method as FlowMethod };
}
