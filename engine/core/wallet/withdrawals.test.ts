import { describe, expect, it } from "vitest";
import { CANCELLABLE_WITHDRAWAL_STATES, WITHDRAWAL_STATES as WIRE_STATES } from "../../../protocol/endpoints/withdrawals";
import { ExchangeCore } from "../exchange/exchange-core";
import type { CoreSnapshot } from "../exchange/core-snapshot";
import { externalAccount, feeAccount } from "../ledger/ledger";
import { WITHDRAWAL_ACTIONS, WITHDRAWAL_STATES, WITHDRAWAL_STEPS, type WithdrawalAction, type WithdrawalState } from "./withdrawals";

const funding = (memberId: string) => ({ owner: memberId, kind: "funding" as const, asset: "USDT" });

function coreWithFunds(): ExchangeCore {
  const core = new ExchangeCore("t");
  core.listAsset("USDT", 6);
  core.apply({ type: "ledger.deposit", id: "d1", memberId: "1", asset: "USDT", kind: "funding", amount: "1000" });
  return core;
}

/** The steps that lead from a fresh request to `state` (every state is reachable). */
const PATHS: Record<WithdrawalState, WithdrawalAction[]> = {
  review: [],
  approved: ["approve"],
  broadcast: ["approve", "broadcast"],
  completed: ["approve", "broadcast", "complete"],
  rejected: ["reject"],
  cancelled: ["cancel"],
};

function stepArgs(action: WithdrawalAction) {
  return {
    ...(action === "cancel" ? { memberId: "1" } : {}),
    ...(action === "reject" ? { reason: "unusual destination" } : {}),
    ...(action === "broadcast" ? { txid: "ab".repeat(32) } : {}),
  };
}

/**
 * Decision 028's table, written out here on its own (not read from `WITHDRAWAL_STEPS`): every
 * (state, step) pair, the state it leads to or the code it is refused with.
 */
const TABLE: Record<WithdrawalState, Record<WithdrawalAction, WithdrawalState | "WITHDRAWAL_WRONG_STATE" | "WITHDRAWAL_UNKNOWN">> = {
  review: { approve: "approved", reject: "rejected", cancel: "cancelled", broadcast: "WITHDRAWAL_WRONG_STATE", complete: "WITHDRAWAL_WRONG_STATE" },
  approved: {
    approve: "WITHDRAWAL_WRONG_STATE",
    reject: "rejected",
    cancel: "WITHDRAWAL_WRONG_STATE",
    broadcast: "broadcast",
    complete: "WITHDRAWAL_WRONG_STATE",
  },
  broadcast: {
    approve: "WITHDRAWAL_WRONG_STATE",
    reject: "WITHDRAWAL_WRONG_STATE",
    cancel: "WITHDRAWAL_WRONG_STATE",
    broadcast: "WITHDRAWAL_WRONG_STATE",
    complete: "completed",
  },
  // A final withdrawal has left memory: every step is refused as for an unknown one.
  completed: {
    approve: "WITHDRAWAL_UNKNOWN",
    reject: "WITHDRAWAL_UNKNOWN",
    cancel: "WITHDRAWAL_UNKNOWN",
    broadcast: "WITHDRAWAL_UNKNOWN",
    complete: "WITHDRAWAL_UNKNOWN",
  },
  rejected: {
    approve: "WITHDRAWAL_UNKNOWN",
    reject: "WITHDRAWAL_UNKNOWN",
    cancel: "WITHDRAWAL_UNKNOWN",
    broadcast: "WITHDRAWAL_UNKNOWN",
    complete: "WITHDRAWAL_UNKNOWN",
  },
  cancelled: {
    approve: "WITHDRAWAL_UNKNOWN",
    reject: "WITHDRAWAL_UNKNOWN",
    cancel: "WITHDRAWAL_UNKNOWN",
    broadcast: "WITHDRAWAL_UNKNOWN",
    complete: "WITHDRAWAL_UNKNOWN",
  },
};

/** The money of a withdrawal of 100 + fee 1 from a funding account of 1,000 (USDT at 6 decimals), in each state. */
const MONEY: Record<WithdrawalState, { available: bigint; held: bigint; external: bigint; fees: bigint }> = {
  review: { available: 899_000_000n, held: 101_000_000n, external: -1_000_000_000n, fees: 0n },
  approved: { available: 899_000_000n, held: 101_000_000n, external: -1_000_000_000n, fees: 0n },
  broadcast: { available: 899_000_000n, held: 0n, external: -900_000_000n, fees: 1_000_000n },
  completed: { available: 899_000_000n, held: 0n, external: -900_000_000n, fees: 1_000_000n },
  rejected: { available: 1_000_000_000n, held: 0n, external: -1_000_000_000n, fees: 0n },
  cancelled: { available: 1_000_000_000n, held: 0n, external: -1_000_000_000n, fees: 0n },
};

describe("withdrawals in the core", () => {
  const inState = (state: WithdrawalState) => {
    const core = coreWithFunds();
    expect(core.apply({ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "100", fee: "1" }).code).toBe("OK");
    for (const step of PATHS[state]) expect(core.apply({ type: "wallet.withdrawal", id: "w1", action: step, ...stepArgs(step) }).code).toBe("OK");
    return core;
  };
  const money = (core: ExchangeCore) => ({
    available: core.ledger.available(funding("1")),
    held: core.ledger.held(funding("1")),
    external: core.ledger.posted(externalAccount("USDT")),
    fees: core.ledger.posted(feeAccount("USDT")),
  });
  const FINAL: readonly WithdrawalState[] = ["completed", "rejected", "cancelled"];

  it("has the table of decision 028, and the wire's states and cancellable ones agree with it", () => {
    for (const state of WITHDRAWAL_STATES)
      for (const action of WITHDRAWAL_ACTIONS) {
        const expected = TABLE[state][action];
        expect(WITHDRAWAL_STEPS[state][action], `${state} ${action}`).toBe(expected.startsWith("WITHDRAWAL_") ? undefined : expected);
      }
    expect([...WIRE_STATES]).toEqual([...WITHDRAWAL_STATES]);
    expect(WITHDRAWAL_STATES.filter((s) => WITHDRAWAL_STEPS[s].cancel !== undefined)).toEqual([...CANCELLABLE_WITHDRAWAL_STATES]);
  });

  const cases = WITHDRAWAL_STATES.flatMap((state) => WITHDRAWAL_ACTIONS.map((action) => [state, action, TABLE[state][action]] as const));
  it.each(cases)("from %s, %s → %s", (state, action, expected) => {
    const core = inState(state);
    expect(money(core)).toEqual(MONEY[state]);
    const before = core.stateHash();
    const seq = core.lastSeq;
    const outcome = core.apply({ type: "wallet.withdrawal", id: "w1", action, ...stepArgs(action) });
    if (expected === "WITHDRAWAL_WRONG_STATE" || expected === "WITHDRAWAL_UNKNOWN") {
      // Refused: nothing changed, no number taken, no event.
      expect(outcome).toEqual({ code: expected, seq: null });
      expect(core.stateHash()).toBe(before);
      expect(core.lastSeq).toBe(seq);
      expect(core.withdrawals.get("w1")?.state).toBe(FINAL.includes(state) ? undefined : state);
    } else {
      expect(outcome.code).toBe("OK");
      expect(outcome.seq).toBe(seq + 1);
      expect(outcome.events?.[0]).toMatchObject({ type: "withdrawal.changed", id: "w1", memberId: "1", state: expected });
      // The open ones are kept in their new state; a final one leaves memory.
      expect(core.withdrawals.get("w1")?.state).toBe(FINAL.includes(expected) ? undefined : expected);
      expect(money(core)).toEqual(MONEY[expected]);
    }
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it.each(WITHDRAWAL_STATES)("from %s, another member's cancel and a broadcast without its txid are refused and change nothing", (state) => {
    const core = inState(state);
    const before = core.stateHash();
    expect(core.apply({ type: "wallet.withdrawal", id: "w1", action: "cancel", memberId: "2" }).code).toBe("WITHDRAWAL_UNKNOWN");
    const bare = core.apply({ type: "wallet.withdrawal", id: "w1", action: "broadcast" }).code;
    expect(bare).toBe(FINAL.includes(state) ? "WITHDRAWAL_UNKNOWN" : state === "approved" ? "ORDER_BAD_COMMAND" : "WITHDRAWAL_WRONG_STATE");
    expect(core.stateHash()).toBe(before);
  });

  it("holds amount and fee at once, gives them back on a cancel or rejection, and pays out on broadcast", () => {
    const core = coreWithFunds();
    core.apply({ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "100", fee: "1" });
    expect(core.ledger.available(funding("1"))).toBe(899_000_000n);
    expect(core.ledger.held(funding("1"))).toBe(101_000_000n);
    core.apply({ type: "wallet.withdrawal", id: "w1", action: "cancel", memberId: "1" });
    expect(core.ledger.available(funding("1"))).toBe(1_000_000_000n);

    core.apply({ type: "wallet.withdraw", id: "w2", memberId: "1", asset: "USDT", amount: "100", fee: "1" });
    core.apply({ type: "wallet.withdrawal", id: "w2", action: "approve" });
    core.apply({ type: "wallet.withdrawal", id: "w2", action: "reject", reason: "unusual destination" });
    expect(core.ledger.available(funding("1"))).toBe(1_000_000_000n);

    core.apply({ type: "wallet.withdraw", id: "w3", memberId: "1", asset: "USDT", amount: "100", fee: "1" });
    core.apply({ type: "wallet.withdrawal", id: "w3", action: "approve" });
    const externalBefore = core.ledger.posted(externalAccount("USDT"));
    const sent = core.apply({ type: "wallet.withdrawal", id: "w3", action: "broadcast", txid: "cd".repeat(32) });
    expect(sent.events?.[0]).toMatchObject({ type: "withdrawal.changed", state: "broadcast", txid: "cd".repeat(32) });
    expect(core.ledger.posted(funding("1"))).toBe(899_000_000n);
    expect(core.ledger.held(funding("1"))).toBe(0n);
    expect(core.ledger.posted(externalAccount("USDT")) - externalBefore).toBe(100_000_000n);
    expect(core.ledger.posted(feeAccount("USDT"))).toBe(1_000_000n);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("refuses what it cannot do and changes nothing", () => {
    const core = coreWithFunds();
    const hash = core.stateHash();
    const refusals = [
      [{ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "1000", fee: "1" }, "RISK_INSUFFICIENT_AVAILABLE"],
      [{ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "0", fee: "1" }, "ORDER_BAD_COMMAND"],
      [{ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "1.0000001", fee: "1" }, "ORDER_BAD_COMMAND"],
      [{ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "DOGE", amount: "1", fee: "1" }, "ORDER_BAD_COMMAND"],
      [{ type: "wallet.withdrawal", id: "nope", action: "approve" }, "WITHDRAWAL_UNKNOWN"],
    ] as const;
    for (const [command, code] of refusals) expect(core.apply(command).code, JSON.stringify(command)).toBe(code);
    expect(core.stateHash()).toBe(hash);

    core.apply({ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "10", fee: "1" });
    const open = core.stateHash();
    expect(core.apply({ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "10", fee: "1" }).code).toBe("ORDER_BAD_COMMAND");
    // Another member's withdrawal is unknown to them; a broadcast without its txid is refused.
    expect(core.apply({ type: "wallet.withdrawal", id: "w1", action: "cancel", memberId: "2" }).code).toBe("WITHDRAWAL_UNKNOWN");
    core.apply({ type: "wallet.withdrawal", id: "w1", action: "approve" });
    const approved = core.stateHash();
    expect(core.apply({ type: "wallet.withdrawal", id: "w1", action: "broadcast" }).code).toBe("ORDER_BAD_COMMAND");
    expect(core.stateHash()).toBe(approved);
    expect(approved).not.toBe(open);
  });

  it("keeps open withdrawals in a snapshot: the restored core continues them to the same state", () => {
    const core = coreWithFunds();
    core.apply({ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "100", fee: "1" });
    core.apply({ type: "wallet.withdraw", id: "w2", memberId: "1", asset: "USDT", amount: "50", fee: "1" });
    core.apply({ type: "wallet.withdrawal", id: "w2", action: "approve" });
    const restored = ExchangeCore.fromSnapshot(JSON.parse(JSON.stringify(core.snapshot())) as CoreSnapshot, "t");
    expect(restored.stateHash()).toBe(core.stateHash());
    for (const c of [core, restored]) {
      expect(c.apply({ type: "wallet.withdrawal", id: "w1", action: "cancel", memberId: "1" }).code).toBe("OK");
      expect(c.apply({ type: "wallet.withdrawal", id: "w2", action: "broadcast", txid: "ef".repeat(32) }).code).toBe("OK");
    }
    expect(restored.stateHash()).toBe(core.stateHash());
    expect(restored.ledger.posted(funding("1"))).toBe(949_000_000n);
  });
});
