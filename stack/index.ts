// @cuepoint/stack: start, stop and inspect the local backend from a script or a test setup.
// Narrower entry points: @cuepoint/stack/keys (local JWT secret and API keys), /signing-keys (the
// project's JWT signing keys: load, create, sign), /paths (where the
// project and the state live), /db-types (supabase gen types), /system (Debian prerequisites).
export type { ChainDeployScript, LocalChain } from "./lib/chain-deploy.ts";
export { chainRpcUrl, localChainId } from "./lib/chain.ts";
export { loadConfig, parseConfig, parseEnvFile, type StackConfig } from "./lib/config.ts";
export { parseDurationSeconds } from "./server/auth/settings.ts";
export { formatEnv, isProjectStack, stackEnv } from "./lib/env.ts";
export { sharedClusterRoot } from "./lib/cluster-dir.ts";
export { portIsFree, waitForPort } from "./lib/ports.ts";
export { dbUrl } from "./lib/postgres.ts";
export { StackError, run, runInherit, type RunResult } from "./lib/run.ts";
export { startService, stopService, type ServiceSpec } from "./lib/services.ts";
export { apiService, resetStack, stackStatus, startStack, stopStack, type Log, type ServiceStatus, type StartReport } from "./lib/stack.ts";
