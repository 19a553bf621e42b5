import { isIP } from "node:net";
import * as z from "zod";
import { DEFAULT_API_HEAD } from "../protocol/endpoints";
import { isValidAddress } from "./core/wallet/address-formats";
import { parseWatchOnlyKey, PUBLIC_TEST_DEPOSIT_KEYS, type DepositKeys } from "./core/wallet/deposit-keys";

/** An optional xpub: a watch-only extended public key, checked (a private key is refused). */
const optionalXpub = z
  .string()
  .superRefine((value, ctx) => {
    try {
      parseWatchOnlyKey(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  })
  .optional()
  .or(z.literal("").transform(() => undefined));
import type { ChainId } from "./chain/chain-gateway";

/** Engine environment, validated once at start; a wrong value stops the process with its name. */
const engineEnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    ENGINE_HOST: z.string().default("127.0.0.1"),
    ENGINE_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATA_DIR: z.string().min(1).default("./data"),
    API_HEAD: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, "must be letters, digits or dashes")
      .default(DEFAULT_API_HEAD),
    DEPLOYMENT_VARIANT: z.string().default("default"),
    /** SMTP server for the outbox's e-mails, e.g. smtp://user:pass@mail.example.com:587. Unset: outbox only. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    MAIL_FROM: z.string().min(3).default("Meridian Exchange <no-reply@meridian.example>"),
    /** Serve the dev mailbox (GET dev/mailbox). Default: on without SMTP_URL, off with it. */
    DEV_MAILBOX: z.enum(["0", "1"]).optional(),
    /** Where uploads (KYC images) are kept; default `<DATA_DIR>/uploads`. */
    UPLOAD_DIR: z.string().min(1).optional(),
    /** Token of operator calls; default: generated once and kept in `<DATA_DIR>/admin-token`. */
    ADMIN_TOKEN: z.string().min(24).optional(),
    /** Seconds between two codes to one address for one purpose (spec-like default 60). */
    CODE_RESEND_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** Codes one client address may request per hour (all destinations together). */
    CODE_SENDS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
    /** How often the core is snapshotted when commands were accepted since the last one (decision 017). */
    SNAPSHOT_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
    /** Simulated liquidity on the demo markets. Default: on with the embedded database, off with Postgres. */
    SIMULATOR: z.enum(["0", "1"]).optional(),
    /** The demo member (demo@meridian.example / demo1234, with balances) shown on the login page. Default: as SIMULATOR. */
    DEMO_MEMBER: z.enum(["0", "1"]).optional(),
    /** Key that signs private real-time tickets; set it when several engine processes serve sockets (default: random per process). */
    REALTIME_SECRET: z.string().min(24).optional(),
    /**
     * Where operators may work from (decision 043): comma-separated addresses or CIDR ranges
     * (`10.0.0.0/8, 2001:db8::/32`); unset: anywhere. Console logins and operator calls from
     * elsewhere are refused (the CLI's token too).
     */
    OPERATOR_NETWORKS: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((a) => a.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every(isAddressOrRange), "each entry must be an IP address or a CIDR range"),
    /** The web tier's addresses (comma-separated): only their X-Forwarded-For is believed. */
    ENGINE_TRUSTED_PROXIES: z
      .string()
      .default("127.0.0.1")
      .transform((v) =>
        v
          .split(",")
          .map((a) => a.trim())
          .filter(Boolean),
      ),
    /**
     * Watch-only extended public keys (xpub…) the members' deposit addresses are derived from
     * (child 0/{member id}; decision 024), one per chain; never a private key. Unset: BIP32 test
     * vector 1's public key, whose private key is published (a demo only; the engine says so once).
     */
    DEPOSIT_XPUB_BTC: optionalXpub,
    DEPOSIT_XPUB_EVM: optionalXpub,
    DEPOSIT_XPUB_TRON: optionalXpub,
    DEPOSIT_XPUB_DOGE: optionalXpub,
    /** The exchange's XRP address (r…); members are told apart by their destination tags. Unset: the test key's. */
    DEPOSIT_XRP_ADDRESS: z
      .string()
      .refine((v) => isValidAddress("xrp", v), "must be a classic XRP address (r…) with a valid checksum")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Which adapter serves the chain gateway (decision 025): only the embedded simulated chains so far. */
    CHAIN_ADAPTER: z.enum(["simulated"]).default("simulated"),
    /** Simulated chains' block intervals, e.g. `bitcoin=10000,ethereum=4000` (others keep their defaults). */
    CHAIN_BLOCK_MS: z
      .string()
      .regex(
        /^((bitcoin|ethereum|tron|dogecoin|xrp|solana)=\d{2,7})?(,(bitcoin|ethereum|tron|dogecoin|xrp|solana)=\d{2,7})*$/,
        "must be chain=milliseconds pairs, e.g. bitcoin=10000,ethereum=4000",
      )
      .default("")
      .transform(
        (v) =>
          Object.fromEntries(
            v
              .split(",")
              .filter(Boolean)
              .map((pair) => [pair.split("=")[0]!, Number(pair.split("=")[1])]),
          ) as Partial<Record<ChainId, number>>,
      ),
    /** Chance, after each simulated block, that the last 1–2 blocks are replaced (a re-org). */
    CHAIN_REORG_PROBABILITY: z.coerce.number().min(0).max(1).default(0.03),
    /** How often the deposit watcher reads the chains (decision 027): a pass starts this long after the last one ended. */
    DEPOSIT_WATCH_MS: z.coerce.number().int().min(50).max(3_600_000).default(2_000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /**
     * Test-only fault injection: "1" kills the engine (SIGKILL) right after a chain took a
     * withdrawal, before its broadcast step is journaled (engine/wallet/wallet-crash.test.ts).
     * Refused with NODE_ENV=production.
     */
    FAULT_CRASH_AFTER_BROADCAST: z.enum(["0", "1"]).optional(),
  })
  .superRefine((env, ctx) => {
    // A production exchange that cannot e-mail would leave members without codes, and a dev
    // mailbox would serve them to whoever holds the admin token: only a demo install may run so.
    const demo = (env.SIMULATOR ?? (env.DATABASE_URL ? "0" : "1")) === "1";
    if (env.NODE_ENV === "production" && !env.SMTP_URL && env.DEV_MAILBOX !== "1" && !demo) {
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required in production (or DEV_MAILBOX=1 for a demo without e-mail delivery)" });
    }
    if (env.NODE_ENV === "production" && env.FAULT_CRASH_AFTER_BROADCAST === "1") {
      ctx.addIssue({ code: "custom", path: ["FAULT_CRASH_AFTER_BROADCAST"], message: "is a test-only fault injection and is refused in production" });
    }
  });

export type EngineEnv = z.infer<typeof engineEnvSchema>;

export function readEngineEnv(env: NodeJS.ProcessEnv = process.env): EngineEnv {
  const parsed = engineEnvSchema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid engine environment: ${detail}`);
  }
  return parsed.data;
}

/**
 * The deposit keys of an environment (decision 024), and whether any part is the public test
 * key's (the engine then logs once that deposit addresses come from a public test key).
 */
export function depositKeysOf(env: EngineEnv): { keys: DepositKeys; publicTestKey: boolean } {
  const test = PUBLIC_TEST_DEPOSIT_KEYS;
  const keys: DepositKeys = {
    xpubs: {
      bitcoin: env.DEPOSIT_XPUB_BTC ?? test.xpubs.bitcoin,
      evm: env.DEPOSIT_XPUB_EVM ?? test.xpubs.evm,
      tron: env.DEPOSIT_XPUB_TRON ?? test.xpubs.tron,
      dogecoin: env.DEPOSIT_XPUB_DOGE ?? test.xpubs.dogecoin,
    },
    xrpAddress: env.DEPOSIT_XRP_ADDRESS ?? test.xrpAddress,
  };
  const publicTestKey = Object.values(keys.xpubs).some((xpub) => Object.values(test.xpubs).includes(xpub)) || keys.xrpAddress === test.xrpAddress;
  return { keys, publicTestKey };
}

/** An IPv4 or IPv6 address, or a CIDR range of one. */
function isAddressOrRange(text: string): boolean {
  const [address, bits, extra] = text.split("/");
  const family = isIP(address ?? "");
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}
