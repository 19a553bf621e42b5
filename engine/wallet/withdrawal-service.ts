import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { RequestWithdrawal, StepWithdrawal } from "../core/exchange/commands";
import { canonicalDecimal } from "../core/spot/order-history-view";
import type { WithdrawalAction, WithdrawalCode, WithdrawalState } from "../core/wallet/withdrawals";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { WalletWithdrawalTable } from "../store/schema";

/** What a withdrawal request or step answers: the core's code, or a key reused for another request. */
export type WithdrawalServiceCode = WithdrawalCode | typeof KEY_REUSED;

/** A checked request: the coin, where it goes, what the member receives and the fee. */
export interface WithdrawalRequest {
  coin: string;
  network: string;
  address: string;
  memo?: string;
  amount: string;
  fee: string;
}

export interface WithdrawalAnswer {
  code: WithdrawalServiceCode;
  id: string | null;
  state: WithdrawalState | null;
}

export interface WithdrawalRow {
  id: string;
  memberId: string;
  /** The member's public uid (operator lists only). */
  uid?: string;
  coin: string;
  network: string | null;
  address: string | null;
  memo: string | null;
  amount: string;
  fee: string;
  state: string;
  reason: string | null;
  txid: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How long an operator's step waits for its row, so the list it reads next shows it (ms). */
const OPERATOR_READ_BACK_MS = 2_000;

/**
 * Withdrawals through the durable layer (decision 017): each request and step is a command the
 * core decides (core/wallet/withdrawals.ts), answered once it is journaled. A member's request
 * runs once per idempotency key; a member's cancel names the member, so another member's
 * withdrawal is unknown to them. What is checked before a request (network, address, limits,
 * codes) is the caller's: this places what it is given.
 */
export class WithdrawalService {
  constructor(
    private readonly durable: DurableCore,
    private readonly options: { newId?: () => string } = {},
  ) {}

  /**
   * Places a checked request once per idempotency key. `authorize` (the member's passwords and
   * codes) runs only for the first post of a key: a retry gets the first answer without it.
   */
  async request(memberId: string, input: WithdrawalRequest, idempotencyKey: string, authorize?: () => Promise<unknown>): Promise<WithdrawalAnswer> {
    const request = { memberId, key: idempotencyKey, fingerprint: requestFingerprint({ ...input }) };
    return this.durable.once(
      request,
      async () => {
        await authorize?.();
        const id = this.options.newId?.() ?? newWithdrawalId();
        const command: RequestWithdrawal = {
          type: "wallet.withdraw",
          id,
          memberId,
          asset: input.coin,
          amount: input.amount,
          fee: input.fee,
          network: input.network,
          address: input.address,
          ...(input.memo !== undefined ? { memo: input.memo } : {}),
        };
        const answerOf = (outcome: { code: WithdrawalCode }): WithdrawalAnswer =>
          outcome.code === "OK" ? { code: "OK", id, state: "review" } : { code: outcome.code, id: null, state: null };
        return answerOf(await this.durable.execute(command, { keep: { ...request, answer: answerOf } }));
      },
      () => ({ code: KEY_REUSED, id: null, state: null }),
    );
  }

  /** The member's own cancel: only while in review ("Cancel success"); another member's is unknown. */
  async cancel(memberId: string, id: string): Promise<WithdrawalServiceCode> {
    return this.step({ type: "wallet.withdrawal", id, action: "cancel", memberId });
  }

  /** An operator's review: approve, or reject with the reason the member will read. */
  async review(id: string, decision: Extract<WithdrawalAction, "approve" | "reject">, reason?: string): Promise<WithdrawalServiceCode> {
    return this.step({ type: "wallet.withdrawal", id, action: decision, ...(reason !== undefined ? { reason } : {}) }, OPERATOR_READ_BACK_MS);
  }

  /** The sender handed it to the chain as `txid`: the money has left. */
  async broadcast(id: string, txid: string): Promise<WithdrawalServiceCode> {
    return this.step({ type: "wallet.withdrawal", id, action: "broadcast", txid });
  }

  /** The chain confirmed it. */
  async complete(id: string): Promise<WithdrawalServiceCode> {
    return this.step({ type: "wallet.withdrawal", id, action: "complete" });
  }

  /** A member's withdrawals, newest first (their latest request included: the read waits for its row). */
  async ofMember(memberId: string, page: { pageNo: number; pageSize: number }): Promise<{ records: WithdrawalRow[]; total: number }> {
    await this.durable.projectedFor(memberId);
    const db = this.durable.db;
    const [rows, count] = await Promise.all([
      db
        .selectFrom("wallet_withdrawal")
        .selectAll()
        .where("member_id", "=", memberId)
        .orderBy("seq", "desc")
        .limit(page.pageSize)
        .offset((page.pageNo - 1) * page.pageSize)
        .execute(),
      db
        .selectFrom("wallet_withdrawal")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("member_id", "=", memberId)
        .executeTakeFirstOrThrow(),
    ]);
    return { records: rows.map(rowOf), total: Number(count.n) };
  }

  /**
   * Withdrawals in one state, oldest first (an operator's review queue; the sender's approved
   * ones). An operator's list waits until the tables hold every request answered so far; the
   * sender (`current: false`) takes what is there: one approved a moment ago goes next pass.
   */
  async inState(state: WithdrawalState, options: { limit?: number; current?: boolean } = {}): Promise<WithdrawalRow[]> {
    const { limit = 100, current = true } = options;
    if (current) await this.durable.projectedAll();
    const rows = await this.durable.db
      .selectFrom("wallet_withdrawal as w")
      .leftJoin("member as m", "m.id", "w.member_id")
      .selectAll("w")
      .select("m.uid")
      .where("w.state", "=", state)
      .orderBy("w.seq")
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...rowOf(row), ...(row.uid !== null ? { uid: row.uid } : {}) }));
  }

  private async step(command: StepWithdrawal, waitProjected?: number): Promise<WithdrawalServiceCode> {
    return (await this.durable.execute(command, waitProjected ? { waitProjected } : {})).code;
  }
}

/** A withdrawal id: time-ordered and unguessable (a member's cancel names it). */
function newWithdrawalId(): string {
  return `W${Date.now().toString(36)}${randomBytes(6).toString("hex")}`;
}

function rowOf(row: Selectable<WalletWithdrawalTable>): WithdrawalRow {
  return {
    id: row.id,
    memberId: String(row.member_id),
    coin: row.coin,
    network: row.network,
    address: row.address,
    memo: row.memo,
    amount: canonicalDecimal(String(row.amount)),
    fee: canonicalDecimal(String(row.fee)),
    state: row.state,
    reason: row.reason,
    txid: row.txid,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
