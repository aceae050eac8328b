// The service worker's registration, as a few lines of inline script (with the page's CSP nonce)
// rather than a client component: every page carries it, so it costs no chunk and no hydration.

/**
 * The script: with the build's id, register public/sw.js (named by it, so a new deploy installs a
 * new worker with a fresh cache) once the page has loaded; without one (`next dev`), remove any
 * worker a production run on the same address left, so development never serves cached files. A
 * worker that can't install (an old browser, storage refused) leaves the site as it is.
 */
export function serviceWorkerScript(buildId: string | null): string {
  if (!buildId) {
    return `"serviceWorker"in navigator&&navigator.serviceWorker.getRegistrations().then(function(r){r.forEach(function(w){w.unregister()})});`;
  }
  const url = JSON.stringify(`/sw.js?v=${encodeURIComponent(buildId)}`).replace(/</g, "\\u003c");
  return (
    `"serviceWorker"in navigator&&window.addEventListener("load",function(){` +
    `navigator.serviceWorker.register(${url},{scope:"/",updateViaCache:"none"}).catch(function(){})});`
  );
}
