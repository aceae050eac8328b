import { loadLiveClient } from "@/lib/supabase/browser-clients";
import { fetchUnreadCount } from "./rpc";
import { unreadCount } from "./unread-count";
import { userChannel, type UserChannelListener } from "./user-channel";

/**
 * Keeps the page's unread count current (loaded by the bell after first paint): joins the person's
 * channel and reads the count again on each notification, each "read", and after each rejoin. Reads
 * that overlap are not raced: one more read follows the one in flight, and only the latest answer counts.
 */
export function followUnreadCount(userId: string): () => void {
  let stopped = false;
  let reading = false;
  let again = false;
  let unsubscribe = () => {};

  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const count = await fetchUnreadCount();
        if (!stopped && !again && count !== null) unreadCount.set(count);
      } while (again && !stopped);
    } finally {
      reading = false;
    }
  };

  const listener: UserChannelListener = () => void read();
  void loadLiveClient().then(
    (live) => {
      if (!stopped) unsubscribe = userChannel(live, userId).subscribe(listener);
    },
    () => undefined, // offline at load: the count stays as rendered
  );
  return () => {
    stopped = true;
    unsubscribe();
  };
}
