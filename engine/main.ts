import { readEngineEnv } from "./config";
import { startEngine } from "./start-engine";

/** Engine process entry: `npm run engine` (or `npm start`, which also starts the web tier). */
const env = readEngineEnv();
const engine = await startEngine(env);

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
