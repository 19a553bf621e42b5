import { readEngineEnv } from "./config";
import { startEngine } from "./start-engine";
import { EngineLockedError } from "./store/engine-lock";

/** Engine process entry: `npm run engine` (or `npm start`, which also starts the web tier). */
let env: ReturnType<typeof readEngineEnv>;
try {
  env = readEngineEnv();
} catch (error) {
  // A bad configuration does not get better by restarting: exit 78 (EX_CONFIG), not retried.
  console.error(`[engine] ${(error as Error).message}`);
  process.exit(78);
}
const engine = await startEngine(env).catch((error: unknown) => {
  // Another engine on the same data: say so in one line (no stack) and stop.
  if (error instanceof EngineLockedError) {
    console.error(`[engine] ${error.message}`);
    process.exit(75);
  }
  throw error;
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  engine.app.log.info({ signal }, "engine stopping");
  try {
    await engine.close();
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
