import { describe, expect, it } from "vitest";
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

describe("withdrawals in the core", () => {
  const cases = WITHDRAWAL_STATES.flatMap((state) => WITHDRAWAL_ACTIONS.map((action) => [state, action, WITHDRAWAL_STEPS[state][action]] as const));
  it.each(cases)("from %s, %s → %s", (state, action, expected) => {
    const core = coreWithFunds();
    expect(core.apply({ type: "wallet.withdraw", id: "w1", memberId: "1", asset: "USDT", amount: "100", fee: "1" }).code).toBe("OK");
    for (const step of PATHS[state]) expect(core.apply({ type: "wallet.withdrawal", id: "w1", action: step, ...stepArgs(step) }).code).toBe("OK");
    const before = core.stateHash();
    const seq = core.lastSeq;
    const outcome = core.apply({ type: "wallet.withdrawal", id: "w1", action, ...stepArgs(action) });
    if (expected === undefined) {
      // A final withdrawal has left memory: it is unknown; an open one is in the wrong state. Nothing changed.
      expect(outcome.code).toBe(["completed", "rejected", "cancelled"].includes(state) ? "WITHDRAWAL_UNKNOWN" : "WITHDRAWAL_WRONG_STATE");
      expect(core.stateHash()).toBe(before);
      expect(core.lastSeq).toBe(seq);
    } else {
      expect(outcome.code).toBe("OK");
      expect(outcome.events?.[0]).toMatchObject({ type: "withdrawal.changed", id: "w1", state: expected });
    }
    expect(core.ledger.checkInvariants()).toEqual([]);
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
