/** The page the service worker (public/sw.js, which names the same path) keeps and shows offline. */
export const offlinePath = "/offline";
