import { existsSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { userInfo } from "node:os";
import { StackError, run, runInherit } from "./run.ts";

/** Debian packages the stack and the test suite need, each with a file that proves it is installed. */
export const debianPackages = {
  postgres: { name: "postgresql-15", proof: "/usr/lib/postgresql/15/bin/postgres" },
  pgtap: { name: "postgresql-15-pgtap", proof: "/usr/share/postgresql/15/extension/pgtap.control" },
  pgProve: { name: "libtap-parser-sourcehandler-pgtap-perl", proof: "/usr/bin/pg_prove" },
  plpgsqlCheck: { name: "postgresql-15-plpgsql-check", proof: "/usr/share/postgresql/15/extension/plpgsql_check.control" },
  chromium: { name: "chromium", proof: "/usr/bin/chromium" },
  // Chromium draws the reactions' emoji with it; without it screenshots show empty boxes.
  emojiFont: { name: "fonts-noto-color-emoji", proof: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf" },
} as const;

export type DebianPackage = { name: string; proof: string };

export const pgBinDir = "/usr/lib/postgresql/15/bin";

export function missingPackages(packages: readonly DebianPackage[]): DebianPackage[] {
  return packages.filter((pkg) => !existsSync(pkg.proof));
}

export function installCommand(names: string[]): string {
  return `sudo apt-get update && sudo apt-get install -y ${names.join(" ")}`;
}

/**
 * Installs missing Debian packages with apt-get when running as root; otherwise explains exactly
 * what to run. `apt-get update` runs first only when the plain install cannot find a package.
 */
export async function ensureDebianPackages(
  packages: readonly DebianPackage[],
  log: (line: string) => void = console.log,
  canInstall = process.getuid?.() === 0 && existsSync("/usr/bin/apt-get"),
): Promise<void> {
  const missing = missingPackages(packages);
  if (missing.length === 0) return;
  const names = missing.map((pkg) => pkg.name);
  if (!canInstall) {
    throw new StackError(
      `Missing Debian package${names.length > 1 ? "s" : ""}: ${names.join(", ")}.\n` +
        `Install ${names.length > 1 ? "them" : "it"} with:\n  ${installCommand(names)}`,
    );
  }
  log(`Installing Debian packages: ${names.join(" ")} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () => runInherit("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...names], { env });
  if ((await install()) !== 0) {
    await runInherit("apt-get", ["update", "-q"], { env });
    if ((await install()) !== 0) {
      throw new StackError(`apt-get could not install ${names.join(" ")}. Run it yourself:\n  ${installCommand(names)}`);
    }
  }
  const still = missingPackages(missing);
  if (still.length > 0) {
    throw new StackError(`After installing, these are still missing: ${still.map((p) => `${p.name} (${p.proof})`).join(", ")}`);
  }
}

export interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

function lookupUser(name: string): OsUser | undefined {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

/**
 * PostgreSQL refuses to run as root, so under root the cluster runs as the `postgres` system user
 * that Debian's postgresql package creates (made here if absent). Otherwise it runs as the caller.
 */
export async function databaseOsUser(): Promise<OsUser> {
  if (process.getuid?.() !== 0) {
    const me = userInfo();
    return { name: me.username, uid: me.uid, gid: me.gid };
  }
  const existing = lookupUser("postgres");
  if (existing) return existing;
  const created = await run("useradd", ["--system", "--user-group", "--home-dir", "/var/lib/postgresql", "--shell", "/bin/sh", "postgres"]);
  if (created.code !== 0) throw new StackError(`Could not create the postgres OS user: ${created.stderr.trim()}`);
  const user = lookupUser("postgres");
  if (!user) throw new StackError("The postgres OS user could not be found after creating it");
  return user;
}

/** Names the process listening on a local TCP port, read from /proc (no extra tools needed). */
export function portHolder(port: number): string | undefined {
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = parseInt(cols[1].split(":").pop() ?? "", 16);
      const listening = cols[3] === "0A";
      if (listening && localPort === port) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match && inodes.has(match[1])) {
          const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
          return `${command || "process"} (pid ${pid})`;
        }
      } catch {
        // the process or descriptor went away while we looked
      }
    }
  }
  return "another process (not visible to this user)";
}
