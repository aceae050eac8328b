// What the session engine's page loads once the engine starts (./engine-browser.ts), in a chunk of its
// own after first paint: the backend over the page's data client, and the session channel's connection.
export { sessionBackend } from "./backend";
export { SessionConnection } from "./connection";
