// Where the stack finds the project's chain deploy script: package.json's "stack": {"chain":
// {"deploy": "<path>"}}, relative to the project; none named means an empty chain.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { chainDeployName, loadChainDeploy } from "../../lib/chain-deploy.ts";

const dirs: string[] = [];
function project(manifest: unknown, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "stack-chain-deploy-"));
  dirs.push(dir);
  if (manifest !== undefined)
    writeFileSync(path.join(dir, "package.json"), typeof manifest === "string" ? manifest : JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the chain's deploy script", () => {
  test("is none without a package.json, without a stack field, or without stack.chain.deploy", async () => {
    expect(chainDeployName(project(undefined))).toBeUndefined();
    expect(chainDeployName(project({ name: "x" }))).toBeUndefined();
    expect(chainDeployName(project({ stack: { chain: {} } }))).toBeUndefined();
    expect(await loadChainDeploy(project({ stack: {} }))).toBeUndefined();
  });

  test("is the path package.json names, imported from the project", async () => {
    const dir = project({ stack: { chain: { deploy: "scripts/deploy.mjs" } } });
    expect(chainDeployName(dir)).toBe("scripts/deploy.mjs");
    const other = project(
      { stack: { chain: { deploy: "deploy.mjs" } } },
      { "deploy.mjs": "export async function deploy() {}\nexport const version = () => 'v1';\n" },
    );
    const loaded = await loadChainDeploy(other);
    expect(loaded?.name).toBe("deploy.mjs");
    expect(loaded?.script.version?.()).toBe("v1");
  });

  test("is refused, naming what to fix, when the field is not a path, the file is missing or exports no deploy", async () => {
    expect(() => chainDeployName(project({ stack: { chain: { deploy: 42 } } }))).toThrow('"stack.chain.deploy" in');
    expect(() => chainDeployName(project("{ not json"))).toThrow("is not valid JSON");
    await expect(loadChainDeploy(project({ stack: { chain: { deploy: "missing.mjs" } } }))).rejects.toThrow(
      'The chain\'s deploy script missing.mjs (package.json "stack.chain.deploy") does not exist',
    );
    await expect(
      loadChainDeploy(project({ stack: { chain: { deploy: "deploy.mjs" } } }, { "deploy.mjs": "export const version = () => 'v1';\n" })),
    ).rejects.toThrow("The chain's deploy script deploy.mjs exports no deploy(chain) function");
  });
});
