import { sessionMessages } from "./rpc";
import { claimDelayMs, fallbackStepMs } from "./successor";
import type { ListenerMeta, SessionActionResult, SessionRow } from "./types";

/**
 * Taking over from a host who left, as a plain engine (no React): the page tells it what it knows
 * (`update`), it decides whether and when this person claims the host's place, and claims until the
 * place is taken, the host is back, or this page cannot take part.
 *
 * - The successor (successor.ts) claims at once; the others after the host's quiet window, a step
 *   apart, so the successor always gets there first.
 * - The server answers every claim with the session as it then is (claimOutcome): hosted by this
 *   person (the claim won), by the host still there (the server's quiet window: tried again), by
 *   someone else (another claim won), or ended. Losing is expected, so it is an answer, not an error.
 * - A claim that did not get through (offline, a token being refreshed, a server error) is tried
 *   again too, after asking the page to fetch the session: giving up on one failed request would
 *   leave the session with nobody hosting.
 * - A claim answered with someone else hosting: the page's view was stale; the row names the new
 *   host, which ends this claim.
 * - A place that rises in the order (the one ahead left too) claims sooner, never later.
 * - Someone who vanished from presence a moment ago keeps their place in the order for
 *   `departedGraceMs`: a socket that drops and comes back (after a network blip, realtime-js opens a
 *   new one a second later) takes the page's presence with it meanwhile, and the next in line must
 *   not jump ahead of a person who is, in truth, still here.
 */

export interface SuccessionView {
  /** The live session's id (null: none, or it ended). */
  sessionId: string | null;
  hostId: string | null;
  selfId: string;
  /** Everyone on the session channel, as presence last said. */
  listeners: readonly ListenerMeta[];
  /** Presence has been heard at least once (before that, everyone looks absent). */
  presenceSynced: boolean;
  /** The channel is joined: presence is current, and this page can be seen by the others. */
  live: boolean;
}

/**
 * What a claim's answer (the session's row as the server then has it) means for the claimer:
 * `hosting` (the place is theirs), `still-here` (the host it expected still hosts and was heard from
 * within the quiet window), `taken` (someone else hosts now), `ended`.
 */
export function claimOutcome(
  row: Pick<SessionRow, "host_id" | "ended_at">,
  selfId: string,
  expectedHostId: string | null,
): "hosting" | "still-here" | "taken" | "ended" {
  if (row.ended_at) return "ended";
  if (row.host_id === selfId) return "hosting";
  return row.host_id === expectedHostId && row.host_id !== null ? "still-here" : "taken";
}

export interface SuccessionPorts {
  /** The session as the server has it after the claim (./rpc.ts: claim_session_host); an error only when the claim did not get through. */
  claim(sessionId: string, expectedHostId: string | null): Promise<SessionActionResult<SessionRow>>;
  /** The server's answer to a claim that won, lost to someone else, or found the session ended. */
  claimed(row: SessionRow): void;
  /** Fetch the session again: the page's view may be stale. */
  resync(): void;
}

/** Between the successor's tries while the host's quiet window runs. */
export const claimRetryMs = 1_000;
/** A claim that did not get through is tried again after this, doubling, up to `retryCeilingMs`. */
const failedRetryMs = 1_000;
const retryCeilingMs = 8_000;
/** How long tries refused because "the host is still here" go on (the host is back, in truth). */
export const claimGiveUpMs = 30_000;
/** How long a listener who vanished keeps their place (realtime-js reconnects after 1, 2 and 5 s). */
export const departedGraceMs = 10_000;

type Plan = { key: string; dueAt: number; startedAt: number; failures: number };

const setTimer = (run: () => void, ms: number) => setTimeout(run, ms);

export class HostSuccession {
  private view: SuccessionView | null = null;
  private plan: Plan | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private stopped = false;
  /** Listeners who left presence lately, by person, with when they left. */
  private readonly departed = new Map<string, { meta: ListenerMeta; goneAt: number }>();
  private present: readonly ListenerMeta[] = [];
  private graceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ports: SuccessionPorts,
    private readonly now: () => number = Date.now,
  ) {}

  /** What the page knows now; starts, hastens or cancels the claim. */
  update(view: SuccessionView): void {
    if (this.stopped) return;
    this.view = view;
    this.noteDepartures(view);
    const delay = this.claimDelay(view);
    if (delay === null) return this.cancel();
    const key = `${view.sessionId}:${view.hostId ?? ""}`;
    const dueAt = this.now() + delay;
    if (this.plan?.key === key) {
      // Already planned for this departure: only ever sooner (the one ahead left too).
      if (!this.inFlight && dueAt < this.plan.dueAt) this.schedule(this.plan, delay);
      return;
    }
    this.cancel();
    this.schedule({ key, dueAt, startedAt: this.now(), failures: 0 }, delay);
  }

  /** Whether a claim is planned or on its way. */
  get claiming(): boolean {
    return this.plan !== null;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.graceTimer);
    this.cancel();
  }

  /** Who left presence since the last update (kept `departedGraceMs`), and who came back. */
  private noteDepartures(view: SuccessionView): void {
    const now = this.now();
    const here = new Set(view.listeners.map((meta) => meta.user_id));
    // While this page's own channel is down, what it hears says nothing of who left.
    if (view.live && view.presenceSynced) {
      for (const meta of this.present)
        if (!here.has(meta.user_id) && !this.departed.has(meta.user_id)) this.departed.set(meta.user_id, { meta, goneAt: now });
      this.present = view.listeners;
    }
    for (const [id, { goneAt }] of this.departed) if (here.has(id) || now - goneAt >= departedGraceMs) this.departed.delete(id);
    clearTimeout(this.graceTimer);
    const nextExpiry = Math.min(...[...this.departed.values()].map(({ goneAt }) => goneAt + departedGraceMs));
    // When a grace ends, the order may move up: look again then.
    if (Number.isFinite(nextExpiry)) this.graceTimer = setTimer(() => this.view && this.update(this.view), Math.max(0, nextExpiry - now));
  }

  /** Who counts in the order: everyone present, and those who vanished within the grace. */
  private inLine(view: SuccessionView): ListenerMeta[] {
    return [...view.listeners, ...[...this.departed.values()].map(({ meta }) => meta)];
  }

  /** Null when this page does not claim now: the host is here, this page is not, or there is no session. */
  private claimDelay(view: SuccessionView): number | null {
    const { sessionId, hostId, selfId, listeners } = view;
    if (!sessionId || hostId === selfId || !view.presenceSynced || !view.live) return null;
    if (hostId !== null && listeners.some((meta) => meta.user_id === hostId)) return null;
    if (!listeners.some((meta) => meta.user_id === selfId)) return null;
    return claimDelayMs(this.inLine(view), hostId, selfId);
  }

  private cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.plan = null;
  }

  private schedule(plan: Plan, delayMs: number): void {
    clearTimeout(this.timer);
    this.plan = { ...plan, dueAt: this.now() + delayMs };
    this.timer = setTimer(() => void this.attempt(), delayMs);
  }

  private async attempt(): Promise<void> {
    const plan = this.plan;
    const view = this.view;
    if (!plan || !view?.sessionId || this.inFlight) return;
    this.inFlight = true;
    let answer: SessionActionResult<SessionRow>;
    try {
      answer = await this.ports.claim(view.sessionId, view.hostId);
    } catch {
      answer = { ok: false, error: sessionMessages.unreachable };
    } finally {
      this.inFlight = false;
    }
    // The page moved on while the claim was on its way (the host came back, someone else hosts, the page closed).
    if (this.stopped || this.plan?.key !== plan.key) return;
    const current = this.plan;
    if (answer.ok && claimOutcome(answer.data, view.selfId, view.hostId) !== "still-here") {
      this.cancel();
      return this.ports.claimed(answer.data);
    }
    if (answer.ok) {
      if (this.now() - current.startedAt >= claimGiveUpMs) {
        this.cancel();
        return this.ports.resync();
      }
      const first = this.view ? claimDelayMs(this.inLine(this.view), this.view.hostId, this.view.selfId) === 0 : false;
      return this.schedule(current, first ? claimRetryMs : fallbackStepMs);
    }
    // Not through, or refused for another reason (a server error): fetch the session; if it still
    // shows nobody hosting, try again, less often each time.
    this.ports.resync();
    const failures = current.failures + 1;
    this.schedule({ ...current, failures }, Math.min(retryCeilingMs, failedRetryMs * 2 ** (failures - 1)));
  }
}
