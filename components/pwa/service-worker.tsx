"use client";

import { useEffect } from "react";

/**
 * Registers the service worker (public/sw.js) once the page has loaded, named by the build's id so a
 * new deploy installs a new worker with a fresh cache. Without an id (`next dev`) it removes any
 * worker a production run on the same address left, so development never serves cached files.
 */
export function ServiceWorker({ buildId }: { buildId: string | null }) {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const container = navigator.serviceWorker;
    if (!buildId) {
      void container.getRegistrations().then((registrations) => registrations.forEach((registration) => void registration.unregister()));
      return;
    }
    const register = () => {
      // A worker that can't install (an old browser, storage refused) leaves the site as it is.
      container.register(`/sw.js?v=${encodeURIComponent(buildId)}`, { scope: "/", updateViaCache: "none" }).catch(() => undefined);
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    return () => window.removeEventListener("load", register);
  }, [buildId]);
  return null;
}
