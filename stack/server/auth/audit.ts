import type { IncomingMessage } from "node:http";
import { randomUUID } from "./crypto.ts";
import { clientIp } from "./request.ts";
import type { Db, UserRow } from "./users.ts";

const instanceId = "00000000-0000-0000-0000-000000000000";

/** GoTrue's audit actions and the log type each is filed under. */
const logTypes = {
  login: "account",
  logout: "account",
  user_signedup: "team",
  user_confirmation_requested: "user",
  user_repeated_signup: "user",
  user_recovery_requested: "user",
  user_updated_password: "user",
  user_modified: "user",
  user_reauthenticate_requested: "user",
  identity_unlinked: "user",
  user_deleted: "team",
  token_refreshed: "token",
  token_revoked: "token",
  factor_in_progress: "factor",
  factor_unenrolled: "factor",
  challenge_created: "factor",
  verification_attempted: "factor",
  factor_deleted: "factor",
  factor_updated: "factor",
  passkey_created: "user",
  passkey_updated: "user",
  passkey_deleted: "user",
} as const;

export type AuditAction = keyof typeof logTypes;

/** A row of auth.audit_log_entries, in GoTrue's payload format. */
export async function audit(
  db: Db,
  req: IncomingMessage,
  user: Pick<UserRow, "id" | "email">,
  action: AuditAction,
  traits: Record<string, unknown> = {},
): Promise<void> {
  const payload = { action, actor_id: user.id, actor_username: user.email ?? "", actor_via_sso: false, log_type: logTypes[action], traits };
  await db.query("insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address) values ($1, $2, $3, now(), $4)", [
    instanceId,
    randomUUID(),
    JSON.stringify(Object.keys(traits).length ? payload : { ...payload, traits: undefined }),
    clientIp(req).slice(0, 64),
  ]);
}
