import { randomBytes } from "node:crypto";
import { BlockList, isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { AttemptLimiter, BackoffLimiter } from "../core/members/attempt-limiter";
import { MEMBER_RULES } from "../core/members/rules";
import type { MemberService } from "../members/member-service";
import type { OperatorService } from "../operators/operator-service";

/**
 * What every API module gets: the HTTP app, the API head of its paths, shared services, and the
 * member service the member endpoints resolve their caller with. No database: handlers call
 * their area's service, which owns its queries (docs/decisions/020-engine-area-shape.md).
 */
export interface ApiContext {
  app: FastifyInstance;
  apiHead: string;
  services: ApiServices;
  members: MemberService;
  operators: OperatorService;
}

export interface ApiServices {
  /** The clock (tests may pass their own). */
  now: () => number;
  /** Whether the dev mailbox endpoint is served (no real delivery configured). */
  devMailbox: boolean;
  siteName: () => Promise<string>;
  /** Where uploaded files are stored (default `<DATA_DIR>/uploads`). */
  uploadDir: string;
  /** The data folder's token the CLI's operator calls carry (`x-admin-token`; they act as admin). */
  adminToken: string;
  /** Where operators may work from (decision 043); null: anywhere. */
  operatorNetworks: BlockList | null;
  /** The public demo login of a demo install (null: none). */
  demoAccount: { account: string; password: string } | null;
  /** The demo member's id: its login is public, so its security settings stay as they are. */
  demoMemberId: string | null;
  /** Minimum time between two codes to one destination for one purpose (default 60 s). */
  codeResendMs: number;
  limits: {
    /** Login failures of one account from one address. */
    loginPerAccountAndAddress: AttemptLimiter;
    loginPerAddress: AttemptLimiter;
    /** Login failures of one account from anywhere: a back-off, never a lockout. */
    loginBackoffPerAccount: BackoffLimiter;
    /** Login failures of a browser with its device cookie: the only limit such a login meets (decision 040). */
    loginPerDeviceCookie: AttemptLimiter;
    codeSendsPerAddress: AttemptLimiter;
  };
}

export function createServices(options: {
  devMailbox: boolean;
  now?: () => number;
  siteName: () => Promise<string>;
  codeResendMs?: number;
  uploadDir?: string;
  adminToken?: string;
  codeSendsPerHour?: number;
  demoAccount?: { account: string; password: string } | null;
  demoMemberId?: string | null;
  /** Addresses or CIDR ranges operators may work from; empty or absent: anywhere. */
  operatorNetworks?: readonly string[];
}): ApiServices {
  return {
    uploadDir: options.uploadDir ?? path.join(os.tmpdir(), "exchange-uploads"),
    adminToken: options.adminToken ?? randomBytes(24).toString("base64url"),
    now: options.now ?? Date.now,
    codeResendMs: options.codeResendMs ?? MEMBER_RULES.codeResendMs,
    devMailbox: options.devMailbox,
    demoAccount: options.demoAccount ?? null,
    operatorNetworks: options.operatorNetworks?.length ? blockListOf(options.operatorNetworks) : null,
    demoMemberId: options.demoMemberId ?? null,
    siteName: options.siteName,
    limits: {
      loginPerAccountAndAddress: new AttemptLimiter({ max: MEMBER_RULES.loginFailuresPerAccountAndAddress, windowMs: MEMBER_RULES.loginWindowMs }),
      loginBackoffPerAccount: new BackoffLimiter(MEMBER_RULES.loginBackoff),
      loginPerAddress: new AttemptLimiter({ max: MEMBER_RULES.loginFailuresPerAddress, windowMs: MEMBER_RULES.loginWindowMs }),
      loginPerDeviceCookie: new AttemptLimiter({ max: MEMBER_RULES.loginFailuresPerDeviceCookie, windowMs: MEMBER_RULES.loginWindowMs }),
      codeSendsPerAddress: new AttemptLimiter({ max: options.codeSendsPerHour ?? 30, windowMs: 60 * 60_000 }),
    },
  };
}

/** Addresses and CIDR ranges (checked by the configuration) as one list to test an address against. */
export function blockListOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split("/") as [string, string | undefined];
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** Whether `ip` (as Fastify reads it; an IPv4 client may come as `::ffff:a.b.c.d`) is in `list`. */
export function addressIn(list: BlockList, ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  const family = isIP(v4);
  return family !== 0 && list.check(v4, family === 6 ? "ipv6" : "ipv4");
}
