import type { ListenerMeta, RoomRole } from "../../lib/sessions/types";

/** A listener's presence as a session page shares it, named by id (username and name the same). */
export const listenerMeta = (user_id: string, role: RoomRole = "member", since = 0, following = true): ListenerMeta => ({
  user_id,
  username: user_id,
  display_name: user_id,
  avatar_path: null,
  ens_name: null,
  ens_avatar: null,
  role,
  since,
  following,
});
