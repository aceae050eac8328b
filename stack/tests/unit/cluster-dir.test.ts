import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { clusterDir, reachableByOthers, sharedClusterRoot } from "../../lib/cluster-dir.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "cuepoint-cluster-dir-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("where the cluster lives", () => {
  test("inside the clone when postgres can enter it, or when the stack does not run as root", () => {
    expect(clusterDir("/home/ada/cuepoint/.stack", { asRoot: true, reachable: () => true })).toBe("/home/ada/cuepoint/.stack/db");
    expect(clusterDir("/root/cuepoint/.stack", { asRoot: false, reachable: () => false })).toBe("/root/cuepoint/.stack/db");
  });

  test("outside it, under /var/tmp, when postgres cannot; named after the clone's path, so two clones never share one", () => {
    const one = clusterDir("/root/work/cuepoint/.stack", { asRoot: true, reachable: () => false });
    const two = clusterDir("/root/other/cuepoint/.stack", { asRoot: true, reachable: () => false });
    expect(one.startsWith(`${sharedClusterRoot}/cuepoint-`)).toBe(true);
    expect(one.endsWith("/db")).toBe(true);
    expect(two).not.toBe(one);
    expect(clusterDir("/root/work/cuepoint/.stack", { asRoot: true, reachable: () => false })).toBe(one);
  });

  test("a directory only its owner can enter (mktemp -d) is out of reach; one everybody can pass through is not", () => {
    const open = path.join(scratch, "open", "clone");
    mkdirSync(open, { recursive: true });
    chmodSync(path.join(scratch, "open"), 0o755);
    chmodSync(scratch, 0o755);
    expect(reachableByOthers(open)).toBe(true);
    expect(reachableByOthers(path.join(open, "not-yet-created", ".stack"))).toBe(true);
    chmodSync(path.join(scratch, "open"), 0o700);
    expect(reachableByOthers(open)).toBe(false);
  });
});

describe("the state dir itself", () => {
  test("only its ancestors decide: the stack opens its own directory (a 0700 `mktemp -d` STACK_DIR) for postgres", () => {
    const asked: string[] = [];
    const dir = clusterDir("/srv/clone/.stack-lifecycle-x", { asRoot: true, reachable: (d) => (asked.push(d), true) });
    expect(dir).toBe("/srv/clone/.stack-lifecycle-x/db");
    expect(asked).toEqual(["/srv/clone"]);
  });
});
