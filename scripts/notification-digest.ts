// Digest emails on the local backend: `npm run notifications:digest` calls the notification-digest
// function once with the local service key (`-- --user <id>` for one person), and `npm run dev`
// calls it every few minutes while the app runs. The database sends each person at most one digest
// an hour, so calling often only means a digest goes out soon after it is due. Hosted, Supabase
// Cron calls the function hourly (docs/deploy.md).
import { type StackConfig } from "@cuepoint/stack";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";

export interface DigestRun {
  sent: number;
  skipped: number;
  failed: number;
}

export async function sendDigests(config: StackConfig, userId?: string): Promise<DigestRun> {
  const response = await fetch(`http://127.0.0.1:${config.apiPort}/functions/v1/notification-digest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: anonKey, "Content-Type": "application/json" },
    body: JSON.stringify(userId ? { user_id: userId } : {}),
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await response.json().catch(() => ({}))) as Partial<DigestRun> & { error?: string };
  if (!response.ok) throw new Error(`notification-digest answered ${response.status}: ${body.error ?? "no message"}`);
  return { sent: body.sent ?? 0, skipped: body.skipped ?? 0, failed: body.failed ?? 0 };
}

export const describeRun = (run: DigestRun) => `digest emails: ${run.sent} sent, ${run.skipped} skipped, ${run.failed} failed`;

/** Calls the function every `minutes` (first after a short pause, once the app is up); says something only when an email went out or a call failed. Returns the stop. */
export function digestEvery(config: StackConfig, minutes: number, log: (line: string) => void): () => void {
  const tick = () => {
    sendDigests(config).then(
      (run) => {
        if (run.sent > 0 || run.failed > 0) log(`[notifications] ${describeRun(run)} (inbox: http://127.0.0.1:${config.inboxPort})`);
      },
      (error: unknown) => log(`[notifications] digest emails not sent: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const first = setTimeout(tick, 15_000);
  const every = setInterval(tick, minutes * 60_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
