// The local chain's compiled contracts (chain/artifacts.json) are committed so `npm run stack -- start`
// never compiles; these fail when they no longer match their sources. Fix: `npm run chain:compile`.
import { describe, expect, test } from "vitest";
import { compileContracts, contractSources, inputDigest, readArtifacts } from "../../chain/compile";

describe("chain/artifacts.json", () => {
  const artifacts = readArtifacts();

  test("was built from the current contract sources, solc and OpenZeppelin versions", () => {
    expect(artifacts.inputDigest, "contracts changed: run `npm run chain:compile`").toBe(inputDigest());
  });

  test("holds exactly what solc compiles from those sources now", { timeout: 180_000 }, () => {
    const fresh = compileContracts();
    expect(Object.keys(artifacts.contracts).sort()).toEqual(Object.keys(contractSources).sort());
    for (const name of Object.keys(contractSources) as (keyof typeof contractSources)[]) {
      expect(artifacts.contracts[name].bytecode, `${name}'s bytecode: run \`npm run chain:compile\``).toBe(fresh.contracts[name].bytecode);
      expect(artifacts.contracts[name].abi, `${name}'s ABI`).toEqual(fresh.contracts[name].abi);
    }
    expect(artifacts.solcVersion).toBe(fresh.solcVersion);
  });
});
