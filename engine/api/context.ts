import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { AttemptLimiter, BackoffLimiter } from "../core/members/attempt-limiter";
import { MEMBER_RULES } from "../core/members/rules";
import type { MemberService } from "../members/member-service";

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
}

export interface ApiServices {
  /** The clock (tests may pass their own). */
  now: () => number;
  /** Whether the dev mailbox endpoint is served (no real delivery configured). */
  devMailbox: boolean;
  siteName: () => Promise<string>;
  /** Where uploaded files are stored (default `<DATA_DIR>/uploads`). */
  uploadDir: string;
  /** Token of operator calls (`x-admin-token`). */
  adminToken: string;
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
}): ApiServices {
  return {
    uploadDir: options.uploadDir ?? path.join(os.tmpdir(), "exchange-uploads"),
    adminToken: options.adminToken ?? randomBytes(24).toString("base64url"),
    now: options.now ?? Date.now,
    codeResendMs: options.codeResendMs ?? MEMBER_RULES.codeResendMs,
    devMailbox: options.devMailbox,
    demoAccount: options.demoAccount ?? null,
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
