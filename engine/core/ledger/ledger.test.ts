import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accountId, accountOf, externalAccount, feeAccount, Ledger, type AccountRef, type LedgerHold, type TransferEvent } from "./ledger";

const spot = (owner: string, asset = "USDT"): AccountRef => ({ owner, kind: "spot", asset });
const funding = (owner: string, asset = "USDT"): AccountRef => ({ owner, kind: "funding", asset });

/** Every step of every test checks the invariants. */
function expectSound(ledger: Ledger) {
  expect(ledger.checkInvariants()).toEqual([]);
}

describe("ledger", () => {
  it("moves funds only between accounts of one asset, never below zero", () => {
    const ledger = new Ledger();
    const steps: Array<[string, () => { code: string }, string]> = [
      ["deposit", () => ledger.deposit("d1", funding("alice"), 1_000n), "OK"],
      ["to spot", () => ledger.transfer("t1", funding("alice"), spot("alice"), 400n), "OK"],
      ["too much", () => ledger.transfer("t2", funding("alice"), spot("alice"), 601n), "LEDGER_INSUFFICIENT_AVAILABLE"],
      ["wrong asset", () => ledger.transfer("t3", funding("alice"), spot("alice", "BTC"), 1n), "LEDGER_ASSET_MISMATCH"],
      ["zero", () => ledger.transfer("t4", funding("alice"), spot("alice"), 0n), "LEDGER_AMOUNT_NOT_POSITIVE"],
      ["negative", () => ledger.transfer("t5", funding("alice"), spot("alice"), -5n), "LEDGER_AMOUNT_NOT_POSITIVE"],
      ["same account", () => ledger.transfer("t6", spot("alice"), spot("alice"), 1n), "LEDGER_SAME_ACCOUNT"],
      ["hold first", () => ledger.hold("h1", funding("alice"), 1n), "OK"],
      ["the id of an open hold", () => ledger.transfer("h1", funding("alice"), spot("alice"), 1n), "LEDGER_DUPLICATE_ID"],
      ["a second hold under it", () => ledger.hold("h1", funding("alice"), 1n), "LEDGER_DUPLICATE_ID"],
      ["release it", () => ledger.voidHold("h1:release", "h1"), "OK"],
      ["withdraw", () => ledger.withdraw("w1", funding("alice"), 100n), "OK"],
    ];
    for (const [name, step, code] of steps) {
      expect(step().code, name).toBe(code);
      expectSound(ledger);
    }
    expect(ledger.available(funding("alice"))).toBe(500n);
    expect(ledger.available(spot("alice"))).toBe(400n);
    expect(ledger.posted(externalAccount("USDT"))).toBe(-900n);
  });

  it("holds funds in two phases: pending, then posted in parts, then the rest voided", () => {
    const ledger = new Ledger();
    ledger.deposit("d1", spot("bob"), 1_000n);
    expect(ledger.hold("order-1", spot("bob"), 700n).code).toBe("OK");
    expectSound(ledger);
    expect(ledger.available(spot("bob"))).toBe(300n);
    expect(ledger.hold("order-2", spot("bob"), 301n).code).toBe("LEDGER_INSUFFICIENT_AVAILABLE");
    expect(ledger.transfer("t", spot("bob"), funding("bob"), 301n).code).toBe("LEDGER_INSUFFICIENT_AVAILABLE");
    expect(ledger.postHold("fill-1", "order-1", 250n, spot("carol")).code).toBe("OK");
    expect(ledger.postHold("fee-1", "order-1", 5n, feeAccount("USDT")).code).toBe("OK");
    expectSound(ledger);
    expect(ledger.postHold("fill-2", "order-1", 446n, spot("carol")).code).toBe("LEDGER_HOLD_EXCEEDED");
    expect(ledger.postHold("fill-2", "order-1", 1n, spot("carol", "BTC")).code).toBe("LEDGER_ASSET_MISMATCH");
    expect(ledger.holdRemaining("order-1")).toBe(445n);
    const voided = ledger.voidHold("cancel-1", "order-1");
    expect(voided.transfers).toEqual([
      { type: "transfer", id: "cancel-1", phase: "void", debit: "bob/spot/USDT", credit: null, asset: "USDT", amount: 445n, pendingId: "order-1" },
    ]);
    expectSound(ledger);
    expect(ledger.voidHold("cancel-2", "order-1").code).toBe("LEDGER_UNKNOWN_HOLD");
    expect(ledger.available(spot("bob"))).toBe(745n);
    expect(ledger.available(spot("carol"))).toBe(250n);
    expect(ledger.posted(feeAccount("USDT"))).toBe(5n);
  });

  it("never loses or creates an asset, whatever the order of operations (property)", () => {
    const owners = ["a", "b", "c"];
    const kinds = ["funding", "spot"] as const;
    const assets = ["USDT", "BTC"];
    const ref = fc.record({ owner: fc.constantFrom(...owners), kind: fc.constantFrom(...kinds), asset: fc.constantFrom(...assets) });
    const amount = fc.bigInt({ min: -5n, max: 2_000n });
    const op = fc.oneof(
      fc.record({ t: fc.constant("deposit" as const), to: ref, amount }),
      fc.record({ t: fc.constant("withdraw" as const), from: ref, amount }),
      fc.record({ t: fc.constant("transfer" as const), from: ref, to: ref, amount }),
      fc.record({ t: fc.constant("hold" as const), on: ref, amount }),
      fc.record({ t: fc.constant("post" as const), hold: fc.nat(30), to: ref, amount }),
      fc.record({ t: fc.constant("void" as const), hold: fc.nat(30) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const run = () => {
          const ledger = new Ledger();
          ops.forEach((o, i) => {
            const id = `op-${i}`;
            if (o.t === "deposit") ledger.deposit(id, o.to, o.amount);
            else if (o.t === "withdraw") ledger.withdraw(id, o.from, o.amount);
            else if (o.t === "transfer") ledger.transfer(id, o.from, o.to, o.amount);
            else if (o.t === "hold") ledger.hold(id, o.on, o.amount);
            else if (o.t === "post") ledger.postHold(id, `op-${o.hold}`, o.amount, o.to);
            else ledger.voidHold(id, `op-${o.hold}`);
            expect(ledger.checkInvariants()).toEqual([]);
          });
          return ledger.stateHash();
        };
        // Replaying the same stream gives the same state.
        expect(run()).toBe(run());
      }),
      { numRuns: 300 },
    );
  });

  it("names accounts by one id and reads the id back", () => {
    for (const ref of [spot("42"), funding("@system", "BTC"), { owner: "7", kind: "fees", asset: "USDT" } as AccountRef])
      expect(accountOf(accountId(ref))).toEqual(ref);
    for (const bad of ["", "42", "42/spot", "/spot/USDT", "42/spot/"]) expect(() => accountOf(bad)).toThrow(RangeError);
  });

  it("changes through the account and hold records it hands out as through ids, and never through a stale one", () => {
    const byId = new Ledger();
    const byRecord = new Ledger();
    for (const l of [byId, byRecord]) l.deposit("d1", spot("bob"), 1_000n);
    const bob = byRecord.account(spot("bob"));
    const carol = byRecord.account(spot("carol"));
    const fees = byRecord.account(feeAccount("USDT"));
    expect(byRecord.openHold("h1", bob, 1_001n)).toBe("LEDGER_INSUFFICIENT_AVAILABLE");
    expect([byRecord.openHold("h1", bob, 700n)]).toEqual(byId.hold("h1", spot("bob"), 700n).transfers);
    expect(byRecord.openHold("h1", bob, 1n)).toBe("LEDGER_DUPLICATE_ID");
    const hold = byRecord.findHold("h1")!;
    expect(byRecord.payFromHold("p0", hold, 1n, byRecord.account(spot("carol", "BTC")))).toBe("LEDGER_ASSET_MISMATCH");
    expect(byRecord.payFromHold("p0", hold, 1n, bob)).toBe("LEDGER_SAME_ACCOUNT");
    expect(byRecord.payFromHold("p0", hold, 701n, carol)).toBe("LEDGER_HOLD_EXCEEDED");
    expect([byRecord.payFromHold("p1", hold, 250n, carol)]).toEqual(byId.postHold("p1", "h1", 250n, spot("carol")).transfers);
    expect([byRecord.payFromHold("p2", hold, 5n, fees)]).toEqual(byId.postHold("p2", "h1", 5n, feeAccount("USDT")).transfers);
    expect(bob.held).toBe(445n);
    expect([byRecord.releaseHold("r1", hold)]).toEqual(byId.voidHold("r1", "h1").transfers);
    expect(byRecord.stateHash()).toBe(byId.stateHash());
    expectSound(byRecord);
    // The hold ended: its record refuses, even once a new hold takes the same id.
    expect(byRecord.openHold("h1", bob, 10n)).not.toBeTypeOf("string");
    expect(byRecord.payFromHold("p3", hold, 1n, carol)).toBe("LEDGER_UNKNOWN_HOLD");
    expect(() => byRecord.releaseHold("r2", hold)).toThrow();
    expect(byRecord.holdRemaining("h1")).toBe(10n);
    // A restored balance lands in the record already handed out.
    byRecord.restoreBalance("bob/spot/USDT", 2_000n, 10n);
    expect(bob.posted).toBe(2_000n);
    expect(byRecord.available(spot("bob"))).toBe(1_990n);
  });

  it("keeps an attached hold out of its map, and counts it through its keeper in checks, the state hash and look-ups", () => {
    const inMap = new Ledger();
    const attached = new Ledger();
    const kept: LedgerHold[] = [];
    attached.attach({ attachedHold: (id) => kept.find((h) => h.id === id && h.remaining > 0n), attachedHolds: () => kept });
    for (const l of [inMap, attached]) l.deposit("d1", spot("bob"), 1_000n);
    const bob = attached.account(spot("bob"));
    const events: TransferEvent[] = [];
    expect(attached.openAttachedHold("o1", bob, 1_001n, events)).toBe("LEDGER_INSUFFICIENT_AVAILABLE");
    expect(attached.openAttachedHold("o1", bob, 0n, events)).toBe("LEDGER_AMOUNT_NOT_POSITIVE");
    expect(events).toEqual([]);
    const hold = attached.openAttachedHold("o1", bob, 700n, events);
    if (typeof hold === "string") throw new Error(hold);
    kept.push(hold);
    // The same pending transfer (its id made from its owner's) and the same state as a hold the ledger keeps by id.
    expect(events).toEqual(inMap.hold("hold:o1", spot("bob"), 700n).transfers);
    expect([...attached.openHolds()]).toEqual([]);
    expect(attached.findHold("hold:o1")).toBeUndefined();
    expect(attached.holdRemaining("hold:o1")).toBe(700n);
    expect(attached.stateHash()).toBe(inMap.stateHash());
    expectSound(attached);
    // Paid and released on its record as a kept hold would be; gone from the keeper, gone everywhere.
    const carol = attached.account(spot("carol"));
    expect([attached.payFromHold("p1", hold, 200n, carol)]).toEqual(inMap.postHold("p1", "hold:o1", 200n, spot("carol")).transfers);
    expect(attached.stateHash()).toBe(inMap.stateHash());
    expect([attached.releaseHold("r1", hold)]).toEqual(inMap.voidHold("r1", "hold:o1").transfers);
    expect(attached.holdRemaining("hold:o1")).toBe(0n);
    expect(attached.stateHash()).toBe(inMap.stateHash());
    expectSound(attached);
    // A hold its keeper does not count breaks the ledger's check: the account's held amount says so.
    const lost = attached.openAttachedHold("o2", bob, 5n, events);
    expect(lost).not.toBeTypeOf("string");
    expect(attached.checkInvariants()).toEqual(["bob/spot/USDT: held 5 but holds sum to 0"]);
  });

  it("pays a hold's total less a fee, then the fee, as the two posts would", () => {
    const [twoPosts, withFee] = [new Ledger(), new Ledger()];
    for (const l of [twoPosts, withFee]) {
      l.deposit("d1", spot("bob"), 1_000n);
      l.hold("h1", spot("bob"), 700n);
    }
    let n = 0;
    const nextId = () => `t${++n}`;
    const hold = withFee.findHold("h1")!;
    const [carol, fees] = [withFee.account(spot("carol")), withFee.account(feeAccount("USDT"))];
    const out: TransferEvent[] = [];
    expect(withFee.payFromHoldWithFee(hold, 701n, carol, 1n, fees, nextId, out)).toBe("LEDGER_HOLD_EXCEEDED");
    expect(withFee.payFromHoldWithFee(hold, 5n, carol, 6n, fees, nextId, out)).toBe("LEDGER_AMOUNT_NOT_POSITIVE");
    expect(withFee.payFromHoldWithFee(hold, 5n, withFee.account(spot("bob")), 1n, fees, nextId, out)).toBe("LEDGER_SAME_ACCOUNT");
    expect(withFee.payFromHoldWithFee(hold, 5n, withFee.account(spot("carol", "BTC")), 1n, fees, nextId, out)).toBe("LEDGER_ASSET_MISMATCH");
    expect(out).toEqual([]);
    expect(withFee.payFromHoldWithFee(hold, 250n, carol, 5n, fees, nextId, out)).toBe("OK");
    expect(withFee.payFromHoldWithFee(hold, 10n, carol, 0n, fees, nextId, out)).toBe("OK"); // no fee: no fee transfer
    expect(withFee.payFromHoldWithFee(hold, 3n, carol, 3n, fees, nextId, out)).toBe("OK"); // all fee: no transfer to carol
    expect(withFee.payFromHoldWithFee(hold, 437n, carol, 1n, fees, nextId, out)).toBe("OK"); // spends the hold
    const expected = [
      twoPosts.postHold("t1", "h1", 245n, spot("carol")),
      twoPosts.postHold("t2", "h1", 5n, feeAccount("USDT")),
      twoPosts.postHold("t3", "h1", 10n, spot("carol")),
      twoPosts.postHold("t4", "h1", 3n, feeAccount("USDT")),
      twoPosts.postHold("t5", "h1", 436n, spot("carol")),
      twoPosts.postHold("t6", "h1", 1n, feeAccount("USDT")),
    ].flatMap((r) => r.transfers);
    expect(out).toEqual(expected);
    expect(withFee.findHold("h1")).toBeUndefined();
    expect(withFee.stateHash()).toBe(twoPosts.stateHash());
    expectSound(withFee);
    expect(withFee.payFromHoldWithFee(hold, 1n, carol, 0n, fees, nextId, out)).toBe("LEDGER_UNKNOWN_HOLD");
  });
});
