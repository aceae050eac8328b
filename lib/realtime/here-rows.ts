// Who is here, from the rows the database wrote for each person (public.presence, through
// mark_here and who_is_here: supabase/migrations/20261127000700_presence_from_rows.sql). Realtime
// presence only prompts: an id a payload names shows no one without a fresh row of that person's
// own, and someone whose presence ended shows no longer, whatever their row says.

import type { BrowserData } from "@/lib/supabase/data-client";

/** A person with an open page in the room, as the database has it. */
export interface HereRow {
  user_id: string;
  username: string;
  display_name: string;
  avatar_path: string | null;
  ens_name: string | null;
  ens_avatar: string | null;
  role: "owner" | "moderator" | "member";
  session_id: string | null;
  playing_post_id: string | null;
  playing_title: string | null;
  following: boolean;
  /** When they joined (their session, or the room): ISO time, the server's clock. */
  since: string;
  seen_at: string;
}

type Rpc = Pick<BrowserData, "rpc">;

/** How often an open page says it is still here (the database counts a row for 75 s). */
const markEveryMs = 30_000;
/** How often a page reads who is here even when presence has not changed (what others play, who went quiet). */
const readEveryMs = 30_000;

/** The ids presence names: hints only. */
export function presentIds(state: Record<string, unknown[]>): Set<string> {
  const ids = new Set<string>();
  for (const metas of Object.values(state)) {
    for (const meta of metas) {
      const id = meta && typeof meta === "object" ? (meta as Record<string, unknown>).user_id : undefined;
      if (typeof id === "string") ids.add(id);
    }
  }
  return ids;
}

export interface Mark {
  sessionId?: string | null;
  playingPostId?: string | null;
  following?: boolean;
}

/** This page is here: the database writes its row for the caller. Returns since when (ms), or null when refused. */
export async function markHere(data: Rpc, roomId: string, tabId: string, mark: Mark = {}): Promise<number | null> {
  const { data: since, error } = await data.rpc("mark_here", {
    target_room: roomId,
    tab: tabId,
    in_session: mark.sessionId ?? undefined,
    playing_post: mark.playingPostId ?? undefined,
    is_following: mark.following ?? true,
  });
  return error || typeof since !== "string" ? null : Date.parse(since);
}

/**
 * One page's writes to its own row (marks, then leaving), sent one at a time in the order asked.
 * Requests in flight together may reach the database in either order, and the row keeps whichever
 * landed last: a mark sent before the page joined a session, landing after the one sent once it had,
 * would leave the page out of the session (the others not counting it) until the next mark, 30 s
 * later; a mark landing after leaving would bring the row back. Returns the sender: a write is sent
 * at once when none is on its way, else after those before it are answered.
 */
export function inTurn(): <T>(write: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  let onTheirWay = 0;
  return <T>(write: () => Promise<T>): Promise<T> => {
    const sent: Promise<T> = onTheirWay === 0 ? write() : last.then(write);
    onTheirWay++;
    const answered = () => void onTheirWay--;
    last = sent.then(answered, answered);
    return sent;
  };
}

/**
 * Keeps this page marked here: at once and every 30 s, `mark()` writes its row; after one that took,
 * `marked()` tells presence (so the others, prompted, find the row), then `prompt()` reads the rows
 * again. Returns the stop.
 */
export function keepMarked(mark: () => Promise<number | null>, marked: () => void, prompt: () => void): () => void {
  let stopped = false;
  const once = async () => {
    const since = await mark();
    if (stopped) return;
    if (since !== null) marked();
    prompt();
  };
  void once();
  const every = setInterval(() => void once(), markEveryMs);
  return () => {
    stopped = true;
    clearInterval(every);
  };
}

export async function leaveHere(data: Rpc, roomId: string, tabId: string): Promise<void> {
  await data.rpc("leave_here", { target_room: roomId, tab: tabId });
}

async function whoIsHere(data: Rpc, roomId: string): Promise<HereRow[] | null> {
  const { data: rows, error } = await data.rpc("who_is_here", { target_room: roomId });
  return error ? null : (rows as HereRow[]);
}

/**
 * Keeps the rows of the people presence names: read again a moment after presence changes (spread
 * out, so a room's pages do not all ask at once), and every 30 s.
 */
export class HereRows {
  private ids = new Set<string>();
  private rows: HereRow[] | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly every: ReturnType<typeof setInterval>;
  private reading = false;
  private readAgain = false;
  private stopped = false;

  constructor(
    private readonly read: () => Promise<HereRow[] | null>,
    private readonly onRows: (rows: HereRow[]) => void,
    private readonly delayMs: () => number = () => 250 + Math.random() * 750,
  ) {
    this.every = setInterval(() => void this.refresh(), readEveryMs);
  }

  static forRoom(data: Rpc, roomId: string, onRows: (rows: HereRow[]) => void): HereRows {
    return new HereRows(() => whoIsHere(data, roomId), onRows);
  }

  /** Presence changed: these ids are there now. */
  present(ids: Set<string>): void {
    this.ids = ids;
    this.emit();
    this.prompt();
  }

  /** Read the rows again soon. */
  prompt(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, this.delayMs());
  }

  async refresh(): Promise<void> {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      const rows = await this.read();
      if (rows && !this.stopped) {
        this.rows = rows;
        this.emit();
      }
    } finally {
      this.reading = false;
      if (this.readAgain) {
        this.readAgain = false;
        void this.refresh();
      }
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.every);
  }

  private emit(): void {
    if (this.rows) this.onRows(this.rows.filter((row) => this.ids.has(row.user_id)));
  }
}
