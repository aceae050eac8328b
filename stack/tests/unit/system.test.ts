import { describe, expect, test } from "vitest";
import { ensureDebianPackages, installCommand, missingPackages } from "../../lib/system.ts";

const absent = { name: "cuepoint-test-absent-package", proof: "/nonexistent/cuepoint/proof" };
const present = { name: "coreutils", proof: "/bin/ls" };

describe("Debian prerequisites", () => {
  test("a package counts as installed when its proof file exists", () => {
    expect(missingPackages([absent, present])).toEqual([absent]);
  });

  test("without root, a missing package is named with the exact command to install it", async () => {
    await expect(ensureDebianPackages([present, absent], () => undefined, false)).rejects.toThrow(
      "Missing Debian package: cuepoint-test-absent-package.\nInstall it with:\n  sudo apt-get update && sudo apt-get install -y cuepoint-test-absent-package",
    );
  });

  test("nothing happens when everything is installed", async () => {
    const lines: string[] = [];
    await ensureDebianPackages([present], (line) => lines.push(line), false);
    expect(lines).toEqual([]);
  });

  test("the install command lists every missing package", () => {
    expect(installCommand(["a", "b"])).toBe("sudo apt-get update && sudo apt-get install -y a b");
  });
});
