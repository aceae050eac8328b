// Who may start a listening session in a room (rooms.session_starters; the owner alone decides).
// Plain values, apart from the zod schema in lib/validation/room.ts, so the settings form can show
// them without loading zod.

export const sessionStarterChoices = ["moderators", "members"] as const;
export type SessionStarters = (typeof sessionStarterChoices)[number];
export const sessionStarterLabels: Record<SessionStarters, string> = { moderators: "Owner and moderators", members: "Any member" };
