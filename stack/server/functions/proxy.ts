import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { sendWorkerError, workerErrors, type WorkerError } from "./errors.ts";

/** Headers that belong to one connection, not to the request or response being relayed. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** CORS headers the gateway adds for every service: a function's responses carry only its own. */
const gatewayCorsHeaders = [
  "access-control-allow-origin",
  "access-control-expose-headers",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-max-age",
];

function relayable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !hopByHop.has(name)) kept[name] = value;
  return kept;
}

export interface ProxyTarget {
  port: number;
  /** Path and query the function sees: `/<name>/<rest>?<query>`, as the edge runtime passes it. */
  path: string;
  headers: OutgoingHttpHeaders;
  wallClockMs: number;
}

export type ProxyOutcome = "answered" | "crashed" | "timed out" | "client gone";

/**
 * Streams the request to the worker and its response back. A worker that dies mid-request
 * answers as the edge runtime does (WORKER_ERROR); one that outlives the wall-clock limit gets
 * WORKER_LIMIT, and the caller terminates it.
 */
export function proxyToWorker(req: IncomingMessage, res: ServerResponse, target: ProxyTarget): Promise<ProxyOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: ProxyOutcome, error?: WorkerError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error && !res.headersSent) sendWorkerError(res, error);
      else if (outcome !== "answered") res.destroy();
      resolve(outcome);
    };

    const upstream = http.request({
      host: "127.0.0.1",
      port: target.port,
      method: req.method,
      path: target.path,
      headers: relayable(target.headers as IncomingHttpHeaders),
    });
    const timer = setTimeout(() => {
      upstream.destroy();
      finish("timed out", workerErrors.limit);
    }, target.wallClockMs);

    upstream.on("response", (answer) => {
      for (const name of gatewayCorsHeaders) res.removeHeader(name);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, relayable(answer.headers));
      answer.pipe(res);
      answer.on("end", () => finish("answered"));
      answer.on("error", () => finish("crashed"));
      answer.on("aborted", () => finish("crashed"));
    });
    upstream.on("error", () => finish("crashed", workerErrors.crashed));
    res.on("close", () => {
      if (!res.writableFinished && !settled) {
        upstream.destroy();
        finish("client gone");
      }
    });
    req.pipe(upstream);
  });
}
