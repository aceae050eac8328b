import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

/**
 * The gateway's access log, one line per answered request as Kong logs them in `supabase start`
 * (`docker logs supabase_kong_…`): `<ip> - - [<time>] "<METHOD> <path> HTTP/<v>" <status> <bytes> "<referer>" "<agent>"`.
 * The path is logged without its query string, which can carry keys and signed-URL tokens. The
 * file starts empty with each API start, so it holds one run.
 */
export function createAccessLog(file: string): { log: (req: IncomingMessage, res: ServerResponse) => void; close: () => void } {
  mkdirSync(path.dirname(file), { recursive: true });
  const stream: WriteStream = createWriteStream(file, { flags: "w" });
  stream.on("error", (error) => console.error(`[api] access log ${file}: ${error.message}`));
  return {
    log(req, res) {
      res.once("finish", () => {
        const target = req.url ?? "/";
        const query = target.indexOf("?");
        const pathname = query === -1 ? target : target.slice(0, query);
        const bytes = res.getHeader("content-length") ?? "-";
        const quote = (value: string | undefined) => (value ? value.replace(/["\\\n\r]/g, "_") : "-");
        stream.write(
          `${req.socket.remoteAddress ?? "-"} - - [${new Date().toISOString()}] "${quote(req.method)} ${quote(pathname)} HTTP/${req.httpVersion}" ${res.statusCode} ${String(bytes)} "${quote(req.headers.referer)}" "${quote(req.headers["user-agent"])}"\n`,
        );
      });
    },
    close: () => stream.end(),
  };
}
