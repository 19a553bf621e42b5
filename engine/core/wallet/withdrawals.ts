import type { CoreEvent } from "../exchange/events";
import { externalAccount, feeAccount, type Ledger, type TransferEvent } from "../ledger/ledger";

/**
 * Withdrawals as the core keeps them (issue 12): the money side and the state machine, so that
 * every step is a journaled command and a member's cancel and an operator's approval that arrive
 * together are decided in one order, the same on every replay.
 *
 * - **request**: `amount + fee` of the member's funding account is held at once (two-phase: the
 *   hold is the pending transfer); state `review`.
 * - **approve** (operator): `approved`. **reject** (operator, with a reason) or **cancel** (the
 *   member, only while in review): the hold is voided, `rejected` / `cancelled`.
 * - **broadcast** (the sender handed the transaction to the chain, with its txid): the hold pays
 *   `amount` to the asset's external account and `fee` to the fee account; the money has left.
 * - **complete** (the chain confirmed it): `completed`.
 *
 * Which steps are allowed from where is `WITHDRAWAL_STEPS`, one table; anything else is refused
 * and changes nothing. Final withdrawals leave memory (the projection keeps their history).
 */
export const WITHDRAWAL_STATES = ["review", "approved", "broadcast", "completed", "rejected", "cancelled"] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];
export const WITHDRAWAL_ACTIONS = ["approve", "reject", "cancel", "broadcast", "complete"] as const;
export type WithdrawalAction = (typeof WITHDRAWAL_ACTIONS)[number];
export type OpenWithdrawalState = "review" | "approved" | "broadcast";

/** Where each step leads from each state; a missing entry is a refused step. */
export const WITHDRAWAL_STEPS: Record<WithdrawalState, Partial<Record<WithdrawalAction, WithdrawalState>>> = {
  review: { approve: "approved", reject: "rejected", cancel: "cancelled" },
  approved: { reject: "rejected", broadcast: "broadcast" },
  broadcast: { complete: "completed" },
  completed: {},
  rejected: {},
  cancelled: {},
};

export function nextWithdrawalState(state: WithdrawalState, action: WithdrawalAction): WithdrawalState | undefined {
  return WITHDRAWAL_STEPS[state][action];
}

export type WithdrawalCode =
  | "OK"
  | "RISK_INSUFFICIENT_AVAILABLE"
  | "ORDER_BAD_COMMAND"
  /** No open withdrawal with this id (never made, or final), or it is another member's. */
  | "WITHDRAWAL_UNKNOWN"
  /** The step is not allowed from the withdrawal's state (e.g. a cancel after approval). */
  | "WITHDRAWAL_WRONG_STATE";

export interface OpenWithdrawal {
  id: string;
  memberId: string;
  asset: string;
  /** What the member receives (minor units). */
  amount: bigint;
  /** What the exchange keeps (minor units, same asset). */
  fee: bigint;
  state: OpenWithdrawalState;
}

/** The hold of a withdrawal: its id with a prefix no order id has. */
export const withdrawalHoldId = (id: string) => `wd:${id}`;

export type WithdrawalResult = { code: Exclude<WithdrawalCode, "OK">; events: [] } | { code: "OK"; events: CoreEvent[] };

const refused = (code: Exclude<WithdrawalCode, "OK">): WithdrawalResult => ({ code, events: [] });

export class Withdrawals {
  private readonly open = new Map<string, OpenWithdrawal>();

  constructor(
    private readonly ledger: Ledger,
    private readonly nextId: () => string,
  ) {}

  get(id: string): OpenWithdrawal | undefined {
    return this.open.get(id);
  }

  /** The open withdrawals, oldest first (snapshots; the state hash). */
  values(): IterableIterator<OpenWithdrawal> {
    return this.open.values();
  }

  /** A member asks to withdraw `amount`, paying `fee`: both held on their funding account. */
  request(w: { id: string; memberId: string; asset: string; amount: bigint; fee: bigint }): WithdrawalResult {
    if (w.amount <= 0n || w.fee < 0n || this.open.has(w.id)) return refused("ORDER_BAD_COMMAND");
    const held = this.ledger.openHold(withdrawalHoldId(w.id), this.ledger.account({ owner: w.memberId, kind: "funding", asset: w.asset }), w.amount + w.fee);
    if (typeof held === "string") return refused(held === "LEDGER_INSUFFICIENT_AVAILABLE" ? "RISK_INSUFFICIENT_AVAILABLE" : "ORDER_BAD_COMMAND");
    const withdrawal: OpenWithdrawal = { ...w, state: "review" };
    this.open.set(w.id, withdrawal);
    return { code: "OK", events: [changed(withdrawal, "review"), held] };
  }

  /**
   * Moves a withdrawal one step. `memberId`, when given, must be the withdrawal's member (a
   * member's own cancel); another member's withdrawal is answered as unknown.
   */
  step(s: { id: string; action: WithdrawalAction; memberId?: string; reason?: string; txid?: string }): WithdrawalResult {
    const w = this.open.get(s.id);
    if (!w || (s.memberId !== undefined && s.memberId !== w.memberId)) return refused("WITHDRAWAL_UNKNOWN");
    const next = nextWithdrawalState(w.state, s.action);
    if (next === undefined) return refused("WITHDRAWAL_WRONG_STATE");
    if (s.action === "broadcast" && !s.txid) return refused("ORDER_BAD_COMMAND");
    const hold = this.ledger.findHold(withdrawalHoldId(w.id));
    const events: CoreEvent[] = [];
    const transfers: TransferEvent[] = [];
    if ((next === "rejected" || next === "cancelled") && hold) transfers.push(this.ledger.releaseHold(this.nextId(), hold));
    if (next === "broadcast") {
      if (!hold) throw new Error(`withdrawal ${w.id} is approved without its hold`);
      const paid = this.ledger.payFromHoldWithFee(
        hold,
        w.amount + w.fee,
        this.ledger.account(externalAccount(w.asset)),
        w.fee,
        this.ledger.account(feeAccount(w.asset)),
        this.nextId,
        transfers,
      );
      if (paid !== "OK") throw new Error(`withdrawal ${w.id} could not pay from its hold: ${paid}`);
    }
    if (next === "completed" || next === "rejected" || next === "cancelled") this.open.delete(w.id);
    else w.state = next as OpenWithdrawalState;
    events.push(changed(w, next, s.reason, s.txid), ...transfers);
    return { code: "OK", events };
  }

  /** Puts an open withdrawal back at start (its hold is restored in the ledger separately). */
  restore(w: OpenWithdrawal): void {
    this.open.set(w.id, { ...w });
  }
}

function changed(w: OpenWithdrawal, state: WithdrawalState, reason?: string, txid?: string): CoreEvent {
  return {
    type: "withdrawal.changed",
    id: w.id,
    memberId: w.memberId,
    asset: w.asset,
    amount: w.amount,
    fee: w.fee,
    state,
    ...(reason !== undefined ? { reason } : {}),
    ...(txid !== undefined ? { txid } : {}),
  };
}
