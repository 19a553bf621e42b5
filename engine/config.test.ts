import { describe, expect, it } from "vitest";
import { readEngineEnv } from "./config";

const env = (values: Record<string, string>) => values as unknown as NodeJS.ProcessEnv;

describe("engine environment (issue 9)", () => {
  it("refuses a production exchange on Postgres that can deliver no e-mail", () => {
    expect(() => readEngineEnv(env({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" }))).toThrow(/SMTP_URL: is required in production/);
  });

  it("starts in production with SMTP, as an explicit demo, or as the embedded demo", () => {
    expect(readEngineEnv(env({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SMTP_URL: "smtp://mail:587" })).SMTP_URL).toBe("smtp://mail:587");
    expect(readEngineEnv(env({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", DEV_MAILBOX: "1" })).DEV_MAILBOX).toBe("1");
    expect(readEngineEnv(env({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SIMULATOR: "1" })).SIMULATOR).toBe("1");
    // `npm start`: production mode on the embedded database, a demo install.
    expect(readEngineEnv(env({ NODE_ENV: "production" })).NODE_ENV).toBe("production");
  });

  it("reads the chain gateway's adapter and the simulated chains' block intervals (decision 025)", () => {
    expect(readEngineEnv(env({}))).toMatchObject({ CHAIN_ADAPTER: "simulated", CHAIN_BLOCK_MS: {}, CHAIN_REORG_PROBABILITY: 0.03 });
    expect(readEngineEnv(env({ CHAIN_BLOCK_MS: "bitcoin=5000,solana=400", CHAIN_REORG_PROBABILITY: "0" }))).toMatchObject({
      CHAIN_BLOCK_MS: { bitcoin: 5000, solana: 400 },
      CHAIN_REORG_PROBABILITY: 0,
    });
    expect(() => readEngineEnv(env({ CHAIN_ADAPTER: "bitcoind" }))).toThrow(/CHAIN_ADAPTER/);
    expect(() => readEngineEnv(env({ CHAIN_BLOCK_MS: "litecoin=5000" }))).toThrow(/CHAIN_BLOCK_MS: must be chain=milliseconds pairs/);
    expect(() => readEngineEnv(env({ CHAIN_BLOCK_MS: "bitcoin=5" }))).toThrow(/CHAIN_BLOCK_MS/);
    expect(() => readEngineEnv(env({ CHAIN_REORG_PROBABILITY: "2" }))).toThrow(/CHAIN_REORG_PROBABILITY/);
  });
});
