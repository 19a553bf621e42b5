import { describe, expect, it } from "vitest";
import { PUBLIC_TEST_XPUB } from "./core/wallet/deposit-keys";
import { depositKeysOf, readEngineEnv } from "./config";

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

  it("reads the deposit watcher's interval (decision 027)", () => {
    expect(readEngineEnv(env({})).DEPOSIT_WATCH_MS).toBe(2000);
    expect(readEngineEnv(env({ DEPOSIT_WATCH_MS: "500" })).DEPOSIT_WATCH_MS).toBe(500);
    expect(() => readEngineEnv(env({ DEPOSIT_WATCH_MS: "5" }))).toThrow(/DEPOSIT_WATCH_MS/);
  });

  it("takes the test-only crash after a broadcast outside production only (issue 12)", () => {
    expect(readEngineEnv(env({})).FAULT_CRASH_AFTER_BROADCAST).toBeUndefined();
    expect(readEngineEnv(env({ FAULT_CRASH_AFTER_BROADCAST: "1" })).FAULT_CRASH_AFTER_BROADCAST).toBe("1");
    expect(() => readEngineEnv(env({ NODE_ENV: "production", FAULT_CRASH_AFTER_BROADCAST: "1" }))).toThrow(
      /FAULT_CRASH_AFTER_BROADCAST: is a test-only fault injection/,
    );
    expect(() => readEngineEnv(env({ FAULT_CRASH_AFTER_BROADCAST: "yes" }))).toThrow(/FAULT_CRASH_AFTER_BROADCAST/);
  });
});

describe("deposit keys in the environment (decision 024)", () => {
  // BIP32 test vector 2's master key: another public key than the default.
  const OTHER_XPUB = "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB";
  const XPRV = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";

  it("defaults to the public test key, and says so", () => {
    const { keys, publicTestKey } = depositKeysOf(readEngineEnv(env({})));
    expect(keys.xpubs.bitcoin).toBe(PUBLIC_TEST_XPUB);
    expect(publicTestKey).toBe(true);
  });

  it("takes an operator's xpubs and XRP address, and refuses a private key or a broken address", () => {
    const configured = readEngineEnv(
      env({
        DEPOSIT_XPUB_BTC: OTHER_XPUB,
        DEPOSIT_XPUB_EVM: OTHER_XPUB,
        DEPOSIT_XPUB_TRON: OTHER_XPUB,
        DEPOSIT_XPUB_DOGE: OTHER_XPUB,
        DEPOSIT_XRP_ADDRESS: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
      }),
    );
    expect(depositKeysOf(configured)).toMatchObject({
      keys: { xpubs: { evm: OTHER_XPUB }, xrpAddress: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh" },
      publicTestKey: false,
    });
    expect(() => readEngineEnv(env({ DEPOSIT_XPUB_EVM: XPRV }))).toThrow(/DEPOSIT_XPUB_EVM: must be an extended public key/);
    expect(() => readEngineEnv(env({ DEPOSIT_XRP_ADDRESS: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTt" }))).toThrow(/DEPOSIT_XRP_ADDRESS/);
  });
});
