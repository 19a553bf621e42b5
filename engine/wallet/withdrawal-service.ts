import type { AuditInsert, OperatorAct } from "../operators/audit";
import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { ChainGateway } from "../chain/chain-gateway";
import type { RequestWithdrawal, StepWithdrawal } from "../core/exchange/commands";
import { canonicalDecimal } from "../core/spot/order-history-view";
import type { WithdrawalAction, WithdrawalCode, WithdrawalState } from "../core/wallet/withdrawals";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { WalletWithdrawalTable } from "../store/schema";

/** An operator's rejection refused: a chain already holds the withdrawal's transaction (its money has left). */
export const WITHDRAWAL_ON_CHAIN = "WITHDRAWAL_ON_CHAIN";

/** What a withdrawal request or step answers: the core's code, a key reused for another request, or a rejection too late. */
export type WithdrawalServiceCode = WithdrawalCode | typeof KEY_REUSED | typeof WITHDRAWAL_ON_CHAIN;

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
 *
 * NOTE: an approved withdrawal may be rejected, but the sender may be handing it to its chain at
 * that moment, or may have done so just before the engine stopped (the chain took it, the
 * `broadcast` step was never journaled). Rejecting it then would give the member back money that
 * has left. So the sender's send (`send`) and an operator's rejection of one withdrawal run one
 * at a time, the send only while the core still has it approved, and the rejection only while no
 * chain of `gateway` holds a transaction for it (decision 028).
 */
export class WithdrawalService {
  /** Per withdrawal, the send or rejection under way (see the class's NOTE). */
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(
    private readonly durable: DurableCore,
    private readonly options: {
      newId?: () => string;
      /** The chains an approved withdrawal may already be on; without them (tests of the review alone) a rejection asks none. */
      gateway?: ChainGateway;
    } = {},
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

  /**
   * An operator's review: approve, or reject with the reason the member will read, of a
   * withdrawal in review (a rejection may also stop an approved one the sender has not handed to a
   * chain yet). `from` (the console's): only from where the operator saw it, else
   * `WITHDRAWAL_WRONG_STATE`: of two operators deciding at once, one wins and the other is told. An
   * approved withdrawal that a chain already holds is not rejected (`WITHDRAWAL_ON_CHAIN`): the
   * sender records it as sent on its next pass. The state is checked and the step applied with
   * nothing awaited in between.
   */
  async review(
    id: string,
    decision: Extract<WithdrawalAction, "approve" | "reject">,
    reason: string | undefined,
    act: OperatorAct,
    from?: "review" | "approved",
  ): Promise<WithdrawalServiceCode> {
    const state = () => this.durable.core.withdrawals.get(id)?.state;
    const step = async (): Promise<WithdrawalServiceCode> => {
      const before = state();
      // A final withdrawal has left memory: one the tables know was decided already (by another operator, if `from` was given).
      if (before === undefined) return (await this.finalInTables(id)) ? "WITHDRAWAL_WRONG_STATE" : "WITHDRAWAL_UNKNOWN";
      if (from !== undefined && before !== from) return "WITHDRAWAL_WRONG_STATE";
      const after = { state: decision === "approve" ? "approved" : "rejected", ...(reason ? { reason } : {}) };
      const audit = () => act.row(`withdrawal:${id}`, { state: before }, after, this.durable.now());
      return this.step({ type: "wallet.withdrawal", id, action: decision, ...(reason !== undefined ? { reason } : {}) }, OPERATOR_READ_BACK_MS, audit);
    };
    if (decision === "approve") return step();
    return this.exclusive(id, async () => {
      if (state() === "approved" && (await this.onChain(id))) return WITHDRAWAL_ON_CHAIN;
      return step();
    });
  }

  /** Where a withdrawal stands now: in memory while open, else as the tables have it (undefined: no such withdrawal). */
  async stateOf(id: string): Promise<string | undefined> {
    return this.durable.core.withdrawals.get(id)?.state ?? (await this.finalInTables(id));
  }

  /** A withdrawal's final state as its table row has it (it has left memory), once the projection has caught up. */
  private async finalInTables(id: string): Promise<string | undefined> {
    // A withdrawal decided a moment ago has left memory before its row is written (the tables
    // trail the answer): wait for them, or its loser would be told the withdrawal does not exist.
    await this.durable.projectedAll();
    const row = await this.durable.db.selectFrom("wallet_withdrawal").select("state").where("id", "=", id).executeTakeFirst();
    return row?.state;
  }

  /**
   * The sender's send: `toChain` hands the withdrawal to its chain and answers the txid, then the
   * `broadcast` step is journaled (the money leaves the ledger), with no rejection of it in
   * between. One that is no longer approved (rejected meanwhile) is not handed to the chain:
   * `WITHDRAWAL_WRONG_STATE`.
   */
  async send(id: string, toChain: () => Promise<string>): Promise<WithdrawalServiceCode> {
    return this.exclusive(id, async () => {
      if (this.durable.core.withdrawals.get(id)?.state !== "approved") return "WITHDRAWAL_WRONG_STATE";
      return this.broadcast(id, await toChain());
    });
  }

  /** Records that the chain took it as `txid`: the money has left. (The sender goes through `send`.) */
  async broadcast(id: string, txid: string): Promise<WithdrawalServiceCode> {
    return this.step({ type: "wallet.withdrawal", id, action: "broadcast", txid });
  }

  /** The chain confirmed it. */
  async complete(id: string): Promise<WithdrawalServiceCode> {
    return this.step({ type: "wallet.withdrawal", id, action: "complete" });
  }

  /**
   * A member's withdrawals, newest first, of one coin and in one state when asked (their latest
   * request included: the read waits for its row).
   */
  async ofMember(
    memberId: string,
    page: { pageNo: number; pageSize: number; coin?: string; state?: WithdrawalState },
  ): Promise<{ records: WithdrawalRow[]; total: number }> {
    await this.durable.projectedFor(memberId);
    let rows = this.durable.db.selectFrom("wallet_withdrawal").where("member_id", "=", memberId);
    if (page.coin) rows = rows.where("coin", "=", page.coin);
    if (page.state) rows = rows.where("state", "=", page.state);
    const [records, count] = await Promise.all([
      rows
        .selectAll()
        .orderBy("seq", "desc")
        .limit(page.pageSize)
        .offset((page.pageNo - 1) * page.pageSize)
        .execute(),
      rows.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { records: records.map(rowOf), total: Number(count.n) };
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

  private async step(command: StepWithdrawal, waitProjected?: number, audit?: () => AuditInsert): Promise<WithdrawalServiceCode> {
    return (await this.durable.execute(command, { ...(waitProjected ? { waitProjected } : {}), ...(audit ? { audit } : {}) })).code;
  }

  /** Whether any chain holds a transaction for the withdrawal. */
  private async onChain(id: string): Promise<boolean> {
    const gateway = this.options.gateway;
    if (!gateway) return false;
    const sent = await Promise.all(gateway.chains.map((chain) => gateway.node(chain).sent(id)));
    return sent.some((tx) => tx !== null);
  }

  /** Runs `change` after any send or rejection of the same withdrawal under way. */
  private exclusive<T>(id: string, change: () => Promise<T>): Promise<T> {
    const run = (this.busy.get(id) ?? Promise.resolve()).catch(() => undefined).then(change);
    this.busy.set(id, run);
    const done = () => {
      if (this.busy.get(id) === run) this.busy.delete(id);
    };
    run.then(done, done);
    return run;
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
