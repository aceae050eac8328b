// No import of realtime-js here: the pages' connections use this before the live client has loaded.
type Authorizable = { setAuth(): Promise<void> };

const authorizing = new WeakMap<Authorizable, Promise<void>>();

/**
 * Has the live client ask for the session's current token, and resolves once it holds it, so that a
 * join sent next carries it. Calls on one client run one after another: realtime-js' setAuth()
 * resolves without setting the token when another setAuth() began after it (the later one sets it),
 * so two connections of a page joining at once (a room's and its listening session's) would
 * otherwise send one of their joins as anon, which a private channel refuses.
 */
export function authorizeLive(live: Authorizable): Promise<void> {
  const next = (authorizing.get(live) ?? Promise.resolve()).then(() => live.setAuth()).catch(() => undefined);
  authorizing.set(live, next);
  return next;
}
