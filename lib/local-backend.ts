// Checked when the app starts (`next dev`) or is built (`next build`, and the scripts that build
// it): a .env.local that points at a local backend which is not running is named as the problem
// there, instead of every page later saying it "couldn't reach Cuepoint".
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const localHosts = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);

/** Whether something accepts TCP connections on host:port within `timeoutMs`. */
function portAnswers(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host === "[::1]" ? "::1" : host === "0.0.0.0" ? "127.0.0.1" : host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** The API port in supabase/config.toml (`[api] port`), the project's own stack; 54321 if unset. */
export function projectApiPort(projectDir: string): number {
  const file = path.join(projectDir, "supabase", "config.toml");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const api = /^\[api\]\s*$([\s\S]*?)(?=^\[)/m.exec(text)?.[1] ?? "";
  return Number(/^\s*port\s*=\s*(\d+)/m.exec(api)?.[1] ?? 54321);
}

/**
 * What is wrong with the app's backend setting, or null when nothing is: NEXT_PUBLIC_SUPABASE_URL
 * names a local address (a local stack or `supabase start`) where nothing is listening. Hosted
 * projects are not probed.
 */
export async function localBackendProblem(
  projectDir: string,
  env: Record<string, string | undefined> = process.env,
  answers = portAnswers,
): Promise<string | null> {
  const value = env.NEXT_PUBLIC_SUPABASE_URL;
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null; // lib/env.ts explains a malformed URL
  }
  if (!localHosts.has(url.hostname)) return null;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (await answers(url.hostname, port)) return null;

  const envFile = path.join(projectDir, ".env.local");
  const fromFile = existsSync(envFile) && readFileSync(envFile, "utf8").includes(value);
  const where = fromFile ? "NEXT_PUBLIC_SUPABASE_URL in .env.local" : "NEXT_PUBLIC_SUPABASE_URL (set in the environment)";
  const ownPort = projectApiPort(projectDir);
  const lines = [`The app's backend is not running: ${where} is ${value}, and nothing is listening there.`];
  if (port === ownPort) {
    lines.push("That is this project's local stack. Start it with `npm run stack -- start` (`npm run dev` starts it for you).");
  } else {
    lines.push(
      `That is not this project's local stack (it serves on port ${ownPort}); a private stack (a benchmark or a test run) may have written it and stopped since.`,
      fromFile
        ? "Delete .env.local and run `npm run stack -- start`, which writes it again for the project's stack, or point it at a backend that is running."
        : "Unset it, or point it at a backend that is running.",
    );
  }
  return lines.join("\n");
}
