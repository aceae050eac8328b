// Postgres refuses an action over a person's quota with SQLSTATE PT429 (HTTP 429) and says, in the
// person's words, when to try again (supabase/migrations/*_quotas_and_rate_limits.sql).

/** The refusal's words when the error is a rate limit, else null. */
export function rateLimitRefusal(error: { code?: string; message?: string } | null | undefined): string | null {
  return error?.code === "PT429" && error.message ? error.message : null;
}
