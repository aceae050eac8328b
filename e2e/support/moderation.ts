// Moderation set-up for e2e tests: what the test arranges rather than checks, done as the database's
// owner (a member's join date is theirs to keep; only here is it moved back).
import pg from "pg";
import { dbUrl, loadConfig } from "@cuepoint/stack";

/**
 * Moves the members' join date `days` back, so their reports count towards hiding an item (reports
 * from people who joined in the last day do not).
 */
export async function joinedDaysAgo(roomId: string, userIds: string[], days: number): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl(loadConfig()) });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      "update public.memberships set joined_at = now() - make_interval(days => $3) where room_id = $1 and user_id = any($2)",
      [roomId, userIds, days],
    );
    if (rowCount !== userIds.length) throw new Error(`moved ${rowCount} of ${userIds.length} join dates`);
  } finally {
    await client.end();
  }
}
