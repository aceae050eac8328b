// Compiles Cuepoint's local-chain contracts (chain/contracts) with the solc npm package — the
// compiler is JavaScript in node_modules, nothing is downloaded — into chain/artifacts.json, which
// is committed so that starting the stack never compiles. `npm run chain:compile` regenerates that
// file; a test (tests/unit/chain-artifacts.test.ts) fails when it is stale.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const chainDir = path.dirname(fileURLToPath(import.meta.url));
export const contractsDir = path.join(chainDir, "contracts");
export const artifactsPath = path.join(chainDir, "artifacts.json");

/** Each deployed contract and the source file (under contracts/) that defines it. */
export const contractSources = {
  CuepointToken: "CuepointToken.sol",
  CuepointPass: "CuepointPass.sol",
  CuepointItems: "CuepointItems.sol",
  CuepointSmartAccount: "CuepointSmartAccount.sol",
  ENSRegistry: "ens/ENSRegistry.sol",
  PublicResolver: "ens/PublicResolver.sol",
  ReverseRegistrar: "ens/ReverseRegistrar.sol",
  UniversalResolver: "ens/UniversalResolver.sol",
} as const;

export type ContractName = keyof typeof contractSources;

export interface Artifact {
  abi: unknown[];
  bytecode: `0x${string}`;
}

export interface Artifacts {
  /** What the artifacts were built from: our sources, the OpenZeppelin and solc versions. */
  inputDigest: string;
  solcVersion: string;
  contracts: Record<ContractName, Artifact>;
}

// Anvil's default hardfork runs newer opcodes too; Cancun is what every chain the app supports runs.
const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  // no metadata hash in the bytecode: it would change with comments and file paths
  metadata: { bytecodeHash: "none", appendCBOR: false },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
};

const require = createRequire(import.meta.url);

function listSources(dir = contractsDir, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listSources(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : entry.name.endsWith(".sol")
          ? [`${prefix}${entry.name}`]
          : [],
    )
    .sort();
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
}

/** A digest of everything the artifacts depend on; it changes when a recompile is due. */
export function inputDigest(): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(settings));
  hash.update(`solc ${packageVersion("solc")}\n@openzeppelin/contracts ${packageVersion("@openzeppelin/contracts")}\n`);
  for (const file of listSources()) hash.update(`${file}\n${readFileSync(path.join(contractsDir, file), "utf8")}\n`);
  return hash.digest("hex");
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/** Compiles every source under contracts/ (imports of `@openzeppelin/…` come from node_modules). */
export function compileContracts(): Artifacts {
  const solc = require("solc") as {
    compile: (input: string, callbacks: { import: (file: string) => { contents: string } | { error: string } }) => string;
    version: () => string;
  };
  const sources = Object.fromEntries(listSources().map((file) => [file, { content: readFileSync(path.join(contractsDir, file), "utf8") }]));
  const readImport = (file: string) => {
    try {
      const resolved = file.startsWith("@") ? require.resolve(file) : path.join(contractsDir, file);
      return { contents: readFileSync(resolved, "utf8") };
    } catch {
      return { error: `not found: ${file}` };
    }
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: "Solidity", sources, settings }), { import: readImport }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === "error");
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join("\n")}`);
  const contracts = {} as Record<ContractName, Artifact>;
  for (const [name, file] of Object.entries(contractSources) as [ContractName, string][]) {
    const compiled = output.contracts[file]?.[name];
    if (!compiled) throw new Error(`solc produced no ${name} in ${file}`);
    contracts[name] = { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
  }
  return { inputDigest: inputDigest(), solcVersion: solc.version(), contracts };
}

export function writeArtifacts(artifacts = compileContracts()): string {
  writeFileSync(artifactsPath, `${JSON.stringify(artifacts, null, 1)}\n`);
  return artifactsPath;
}

export function readArtifacts(): Artifacts {
  return JSON.parse(readFileSync(artifactsPath, "utf8")) as Artifacts;
}

// `node chain/compile.ts --write` (npm run chain:compile) rewrites artifacts.json after a contract changes.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes("--write")) {
  console.log(`Wrote ${writeArtifacts()}`);
}
