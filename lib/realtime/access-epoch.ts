// A room's channels move to new topics whenever who may read the room narrows (the room is gated,
// or a gated membership ends): the database's rooms.access_epoch. Topics are `room:{id}` and
// `session:{id}` at epoch 0, then `room:{id}:{epoch}` and `session:{id}:{epoch}`; the database
// sends only to the current ones and the policies admit only those, so a socket left on an older
// topic hears nothing more. It is told once (event `access`, `{epoch}`); an honest page joins the
// new topic, where the policies decide again. What this page knows of each room's epoch:

const epochs = new Map<string, number>();

export type ChannelKind = "room" | "session";

export const channelTopic = (kind: ChannelKind, roomId: string, epoch: number) => `${kind}:${roomId}${epoch > 0 ? `:${epoch}` : ""}`;

/** The room's epoch as this page last learned it (0 until told otherwise). */
export const knownEpoch = (roomId: string): number => epochs.get(roomId) ?? 0;

/** Takes a newer epoch (from an `access` message or a read of the room); true when it moved on. */
function learnEpoch(roomId: string, epoch: unknown): boolean {
  if (typeof epoch !== "number" || !Number.isSafeInteger(epoch) || epoch <= knownEpoch(roomId)) return false;
  epochs.set(roomId, epoch);
  return true;
}

/** Reads the room's current epoch (a refused join may have been on an older topic); true when it moved on. */
async function refreshEpoch(roomId: string, readEpoch: (roomId: string) => Promise<number | null>): Promise<boolean> {
  const epoch = await readEpoch(roomId).catch(() => null);
  return epoch !== null && learnEpoch(roomId, epoch);
}

/** An `access` message heard on a channel joined at `joinedAt`: whether the room's topics have moved past it. */
export function heardEpoch(roomId: string, epoch: unknown, joinedAt: number): boolean {
  learnEpoch(roomId, epoch);
  return knownEpoch(roomId) > joinedAt;
}

/** A join refused on a channel joined at `joinedAt`: whether a newer topic is known, or the room's epoch (read now) moved on. */
export async function epochMovedPast(
  roomId: string,
  joinedAt: number,
  readEpoch?: (roomId: string) => Promise<number | null>,
): Promise<boolean> {
  return knownEpoch(roomId) > joinedAt || (readEpoch !== undefined && (await refreshEpoch(roomId, readEpoch)));
}
