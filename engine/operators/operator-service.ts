import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { Kysely, Selectable } from "kysely";
import { OPERATOR_SESSION, permissionsOf, type OperatorRole, type OperatorSelf, type OperatorView } from "../../protocol/operators";
import { ResultCode } from "../../protocol/result-codes";
import { AttemptLimiter } from "../core/members/attempt-limiter";
import { digest } from "../core/members/secrets";
import { base32Encode, otpauthUri, TOTP_STEP_SECONDS, totpCode } from "../core/members/totp";
import { Refusal } from "../locales/refusal";
import type { Database, OperatorTable } from "../store/schema";
import { OperatorAct, type OperatorActor } from "./audit";

/** What a login answers: a session, or (the first login) the authenticator to set up first. */
export type OperatorLogin = { session: { token: string; expiresAt: string; self: OperatorSelf } } | { setup: { ticket: string; secret: string; uri: string } };

/** How long a first login's authenticator set-up may take. */
const SETUP_MS = 10 * 60_000;
/** Idle sessions are touched at most this often (one write per operator and half minute, not per request). */
const TOUCH_MS = 30_000;

/**
 * Operators' accounts and sessions (issue 29, decision 043). Passwords are argon2id hashes; a
 * session's token is stored as its digest, expires after `OPERATOR_SESSION.idleSeconds` without a
 * request and after `maxSeconds` in any case; a TOTP code is required at every login and is set up
 * at the first one (nothing but the set-up is reachable before). Each change an operator makes here
 * writes its audit row in the change's transaction.
 */
export class OperatorService {
  private readonly setups = new Map<string, { operatorId: string; secret: string; until: number }>();
  /** The last TOTP step each operator logged in with: a code is good for one login (RFC 6238 §5.2). */
  private readonly lastStep = new Map<string, number>();
  private readonly limits = {
    perAccountAndAddress: new AttemptLimiter({ max: 5, windowMs: 15 * 60_000 }),
    perAddress: new AttemptLimiter({ max: 30, windowMs: 15 * 60_000 }),
  };
  private decoyHash: Promise<string> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly issuer: () => Promise<string>,
  ) {}

  /** A new operator (an admin in the console, or the CLI): no authenticator yet, set up at the first login. */
  async add(input: { email: string; name: string; role: OperatorRole; password: string }, act: OperatorAct, now: number): Promise<OperatorView> {
    const passwordHash = await hash(input.password);
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx.selectFrom("operator").select("id").where("email", "=", input.email).executeTakeFirst();
      if (taken) throw Refusal.plain(ResultCode.CONFLICT, `an operator with the e-mail ${input.email} exists`, "OPERATOR_EXISTS");
      const row = await trx
        .insertInto("operator")
        .values({ email: input.email, name: input.name, role: input.role, password_hash: passwordHash, created_at: new Date(now) })
        .returningAll()
        .executeTakeFirstOrThrow();
      const view = operatorView(row);
      await act.write(trx, `operator:${view.id}`, null, { email: view.email, name: view.name, role: view.role }, now);
      return view;
    });
  }

  /**
   * Changes an operator's role, access or authenticator (a lost phone: set up again at the next
   * login). Disabling or resetting ends their sessions. Nobody changes their own (the last admin
   * cannot lock the console).
   */
  async update(id: string, change: { role?: OperatorRole; disabled?: boolean; resetTotp?: boolean }, act: OperatorAct, now: number): Promise<OperatorView> {
    if (act.actor.operatorId === id) throw Refusal.plain(ResultCode.FORBIDDEN, "you cannot change your own role or access", "OPERATOR_SELF");
    const actorId = act.actor.operatorId;
    return this.db.transaction().execute(async (trx) => {
      // The target's row and the acting admin's, locked in id order: two admins demoting each
      // other at once take turns, and the second is no admin any more when its turn comes (the
      // console keeps one; the CLI's token can always make another).
      const locked = await trx
        .selectFrom("operator")
        .selectAll()
        .where("id", "in", actorId === null ? [id] : [id, actorId])
        .orderBy("id")
        .forUpdate()
        .execute();
      const before = locked.find((row) => String(row.id) === id);
      if (!before) throw Refusal.plain(ResultCode.NOT_FOUND, `no operator ${id}`, "OPERATOR_UNKNOWN");
      const actor = actorId === null ? null : locked.find((row) => String(row.id) === actorId);
      if (actorId !== null && (!actor || actor.disabled_at !== null || !permissionsOf(actor.role as OperatorRole).includes("operators.manage"))) {
        throw Refusal.plain(ResultCode.FORBIDDEN, "your role no longer manages operators", "OPERATOR_ROLE");
      }
      const disabledAt = change.disabled === undefined ? before.disabled_at : change.disabled ? (before.disabled_at ?? new Date(now)) : null;
      const after = await trx
        .updateTable("operator")
        .set({
          role: change.role ?? before.role,
          disabled_at: disabledAt,
          totp_secret: change.resetTotp ? null : before.totp_secret,
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (change.disabled || change.resetTotp) {
        await trx
          .updateTable("operator_session")
          .set({ revoked_at: new Date(now) })
          .where("operator_id", "=", id)
          .where("revoked_at", "is", null)
          .execute();
      }
      await act.write(trx, `operator:${id}`, auditedState(before), auditedState(after), now);
      return operatorView(after);
    });
  }

  /** The audit row of an effect outside the database (a payment on a simulated chain), written after it. */
  async recordAlone(act: OperatorAct, target: string, before: unknown, after: unknown, now: number): Promise<void> {
    await act.write(this.db, target, before, after, now);
  }

  async list(): Promise<OperatorView[]> {
    return (await this.db.selectFrom("operator").selectAll().orderBy("id").execute()).map(operatorView);
  }

  /**
   * A login: e-mail, password and the authenticator's code, limited per e-mail and address and per
   * address. Wrong e-mail, password, code or a disabled operator are told apart from nothing (one
   * answer, one argon2 verification either way). The first login (no authenticator yet) answers
   * the secret to set up instead of a session.
   */
  async login(input: { email: string; password: string; totp?: string; ip: string; userAgent: string }, now: number): Promise<OperatorLogin> {
    const keys = [
      { limiter: this.limits.perAccountAndAddress, key: `${input.email}|${input.ip}` },
      { limiter: this.limits.perAddress, key: input.ip },
    ];
    for (const { limiter, key } of keys) {
      const verdict = limiter.check(key, now);
      if (!verdict.allowed) {
        const seconds = Math.ceil(verdict.retryAfterMs / 1000);
        throw Refusal.plain(ResultCode.TOO_MANY_REQUESTS, `too many attempts: wait ${seconds} s`, "TOO_MANY_ATTEMPTS").retryAfter(seconds);
      }
    }
    const row = await this.db.selectFrom("operator").selectAll().where("email", "=", input.email).executeTakeFirst();
    this.decoyHash ??= hash("decoy operator password");
    const passwordOk = await verify(row?.password_hash ?? (await this.decoyHash), input.password);
    const refuse = () => {
      for (const { limiter, key } of keys) limiter.record(key, now);
      return Refusal.plain(ResultCode.UNAUTHORIZED, "wrong e-mail, password or authenticator code", "OPERATOR_CREDENTIALS");
    };
    if (!row || !passwordOk || row.disabled_at) throw refuse();
    if (row.totp_secret === null) {
      const secret = base32Encode(randomBytes(20));
      const ticket = randomBytes(24).toString("base64url");
      // One open set-up per operator (the newest login's), and none past its time: the map stays
      // as small as the operators setting up at once.
      for (const [open, setup] of this.setups) if (setup.operatorId === row.id || setup.until < now) this.setups.delete(open);
      this.setups.set(ticket, { operatorId: row.id, secret, until: now + SETUP_MS });
      return { setup: { ticket, secret, uri: otpauthUri(`${await this.issuer()} operators`, row.email, secret) } };
    }
    if (!input.totp || !this.freshCode(row.id, row.totp_secret, input.totp, now)) throw refuse();
    for (const { limiter, key } of keys) limiter.reset(key);
    return { session: await this.openSession(row, input, now) };
  }

  /** The first login's second step: the authenticator's first code proves it is set up; then a session. */
  async completeSetup(input: { ticket: string; totp: string; ip: string; userAgent: string }, now: number): Promise<OperatorLogin> {
    const setup = this.setups.get(input.ticket);
    if (!setup || setup.until < now) {
      this.setups.delete(input.ticket);
      throw Refusal.plain(ResultCode.UNAUTHORIZED, "the set-up expired: log in again", "OPERATOR_CREDENTIALS");
    }
    if (!this.freshCode(setup.operatorId, setup.secret, input.totp, now)) {
      throw Refusal.plain(ResultCode.BAD_REQUEST, "the authenticator code is wrong", "GOOGLE_CODE_WRONG");
    }
    this.setups.delete(input.ticket);
    // The authenticator and its audit row (the operator's own act) commit together.
    const row = await this.db.transaction().execute(async (trx) => {
      const set = await trx
        .updateTable("operator")
        .set({ totp_secret: setup.secret })
        .where("id", "=", setup.operatorId)
        .where("totp_secret", "is", null)
        .where("disabled_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      if (!set) return null;
      const self = new OperatorAct({ operatorId: set.id, name: set.name, role: set.role as OperatorRole, via: "console", address: input.ip }, "operator.enrol");
      await self.write(trx, `operator:${set.id}`, { totpReady: false }, { totpReady: true }, now);
      return set;
    });
    if (!row) throw Refusal.plain(ResultCode.UNAUTHORIZED, "the set-up expired: log in again", "OPERATOR_CREDENTIALS");
    return { session: await this.openSession(row, input, now) };
  }

  /** The operator of a session token, or null (unknown, revoked, idle too long, past its end, or the operator disabled). */
  async actorOf(token: string, address: string, now: number): Promise<OperatorActor | null> {
    const row = await this.db
      .selectFrom("operator_session as s")
      .innerJoin("operator as o", "o.id", "s.operator_id")
      .select(["s.id as sessionId", "s.last_seen_at", "s.expires_at", "o.id", "o.name", "o.role", "o.disabled_at"])
      .where("s.token_hash", "=", digest(token))
      .where("s.revoked_at", "is", null)
      .executeTakeFirst();
    if (!row || row.disabled_at || row.expires_at.getTime() <= now) return null;
    const idle = now - row.last_seen_at.getTime();
    if (idle > OPERATOR_SESSION.idleSeconds * 1000) return null;
    if (idle > TOUCH_MS)
      await this.db
        .updateTable("operator_session")
        .set({ last_seen_at: new Date(now) })
        .where("id", "=", row.sessionId)
        .execute();
    return { operatorId: row.id, name: row.name, role: row.role as OperatorRole, via: "console", address };
  }

  async logout(token: string, now: number): Promise<void> {
    await this.db
      .updateTable("operator_session")
      .set({ revoked_at: new Date(now) })
      .where("token_hash", "=", digest(token))
      .where("revoked_at", "is", null)
      .execute();
  }

  /** Who an operator is and what they may do (the console's shell). */
  async self(operatorId: string): Promise<OperatorSelf> {
    const row = await this.db.selectFrom("operator").selectAll().where("id", "=", operatorId).executeTakeFirstOrThrow();
    const operator = operatorView(row);
    return { operator, permissions: permissionsOf(operator.role) };
  }

  /** A code of the current step (±1), later than the step this operator last logged in with (a code is good once). */
  private freshCode(operatorId: string, secret: string, code: string, now: number): boolean {
    const current = Math.floor(now / 1000 / TOTP_STEP_SECONDS);
    const step = [current - 1, current, current + 1].find((s) => totpCode(secret, s * TOTP_STEP_SECONDS * 1000) === code);
    if (step === undefined || step <= (this.lastStep.get(operatorId) ?? -1)) return false;
    this.lastStep.set(operatorId, step);
    return true;
  }

  private async openSession(row: Selectable<OperatorTable>, input: { ip: string; userAgent: string }, now: number) {
    const token = randomBytes(32).toString("base64url");
    const at = new Date(now);
    const expiresAt = new Date(now + OPERATOR_SESSION.maxSeconds * 1000);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("operator_session")
        .values({
          operator_id: row.id,
          token_hash: digest(token),
          created_at: at,
          last_seen_at: at,
          expires_at: expiresAt,
          ip: input.ip,
          user_agent: input.userAgent.slice(0, 300),
        })
        .execute();
      await trx.updateTable("operator").set({ last_login_at: at }).where("id", "=", row.id).execute();
    });
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      self: { operator: operatorView({ ...row, last_login_at: at }), permissions: permissionsOf(row.role as OperatorRole) },
    };
  }
}

function operatorView(row: Selectable<OperatorTable>): OperatorView {
  return {
    id: String(row.id),
    email: row.email,
    name: row.name,
    role: row.role as OperatorRole,
    totpReady: row.totp_secret !== null,
    disabled: row.disabled_at !== null,
    createdAt: new Date(row.created_at).toISOString(),
    lastLoginAt: row.last_login_at ? new Date(row.last_login_at).toISOString() : null,
  };
}

/** What an operator's audit row shows of them (never a hash or a secret). */
function auditedState(row: Selectable<OperatorTable>) {
  return { role: row.role, disabled: row.disabled_at !== null, totpReady: row.totp_secret !== null };
}
