// `npm run stack -- <command>`: the Docker-free local Supabase backend. See stack/README.md.
import { loadConfig } from "./lib/config.ts";
import { formatEnv, stackEnv } from "./lib/env.ts";
import { StackError } from "./lib/run.ts";
import { resetStack, stackStatus, startStack, stopStack } from "./lib/stack.ts";

const usage = `Usage: npm run stack -- <command>

Commands:
  start    create (first time) and start the local backend and chain, apply pending migrations
  stop     stop everything start started
  status   show what runs where
  reset    recreate the database and chain from scratch: base schema, migrations, seed, the chain's deploy script
  env      print the app's variables (the form \`supabase status -o env\` prints)`;

const log = (line: string) => console.log(line);

async function main(command: string | undefined): Promise<number> {
  const config = loadConfig();
  switch (command) {
    case "start": {
      const report = await startStack(config, log);
      const alreadyRunning =
        report.database === "already running" && report.api === "already running" && report.chain === "already running";
      const verb = report.created ? "Created and started" : alreadyRunning ? "Already running" : "Started";
      log(`${verb}: local stack ready in ${report.seconds.toFixed(2)} s`);
      for (const service of stackStatus(config)) log(`  ${service.name.padEnd(10)} ${service.detail}`);
      return 0;
    }
    case "stop": {
      const stopped = await stopStack();
      log(`api: ${stopped.api}\nchain: ${stopped.chain}\ndatabase: ${stopped.database}`);
      return 0;
    }
    case "status": {
      const services = stackStatus(config);
      for (const service of services) log(`${service.name.padEnd(10)} ${service.running ? "running " : "stopped "} ${service.detail}`);
      return services.every((service) => service.running) ? 0 : 1;
    }
    case "reset": {
      const report = await resetStack(config, log);
      log(`Reset: local stack ready in ${report.seconds.toFixed(2)} s`);
      return 0;
    }
    case "env":
      log(formatEnv(await stackEnv(config)));
      return 0;
    default:
      console.error(command ? `Unknown command: ${command}\n` : "");
      console.error(usage);
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof StackError) console.error(`stack: ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
