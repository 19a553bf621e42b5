import { describe, expect, it } from "vitest";
import { fromMinor } from "../../../protocol/money";
import type { Command } from "../exchange/commands";
import type { CoreSnapshot } from "../exchange/core-snapshot";
import { ExchangeCore } from "../exchange/exchange-core";
import type { CoreEvent } from "../exchange/events";
import { DAY_MS, interestFor, MATURITIES_PER_TICK, STAKE_RATE_ONE, stakeKind, stakingRewardsAccount } from "./staking";
import { stakeProduct, stakingCore } from "./staking-test-kit";
import { random } from "../../testing/seeded-stream";

const NOON = Date.UTC(2026, 10, 1, 12, 0, 0);
const usdt = (v: bigint) => fromMinor(v, 8, { trim: true });
const rate = (r: string) => BigInt(Math.round(Number(r) * Number(STAKE_RATE_ONE)));

function setUp() {
  const core = stakingCore();
  core.apply({ type: "ledger.deposit", id: "alice-usdt", memberId: "alice", asset: "USDT", kind: "funding", amount: "5000" });
  const invest = (amount: string, productId = "USDT-0", at = NOON, memberId = "alice") => core.apply({ type: "stake.invest", memberId, productId, amount, at });
  const stakeIdOf = (events: readonly CoreEvent[]) => events.find((e) => e.type === "stake.invested")!.stakeId;
  const funding = () => usdt(core.ledger.posted({ owner: "alice", kind: "funding", asset: "USDT" }));
  const rewards = () => usdt(core.ledger.posted(stakingRewardsAccount("USDT")));
  const paid = (events: readonly CoreEvent[]) => events.find((e) => e.type === "stake.paid");
  return { core, invest, stakeIdOf, funding, rewards, paid };
}

describe("interest for a time held", () => {
  it.each([
    ["a whole common year", Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1), "100"],
    ["a whole leap year", Date.UTC(2028, 0, 1), Date.UTC(2029, 0, 1), "100"],
    ["a day of a common year", Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 2), "0.2739726"],
    ["a day of a leap year", Date.UTC(2028, 5, 1), Date.UTC(2028, 5, 2), "0.27322404"],
    ["half a day each side of a leap year's start", Date.UTC(2027, 11, 31, 12), Date.UTC(2028, 0, 1, 12), "0.27359832"],
    ["half a day", NOON, NOON + DAY_MS / 2, "0.1369863"],
    ["no time", NOON, NOON, "0"],
  ])("1,000 at a tenth a year, for %s", (_, from, to, expected) => {
    expect(usdt(interestFor(1000_00000000n, rate("0.1"), from, to))).toBe(expected);
  });
});

describe("staking in the core", () => {
  it("credits each day's interest at its start, the first day pro rata, and pays a flexible stake with its partial day", () => {
    const { core, invest, stakeIdOf, funding, rewards, paid } = setUp();
    const taken = invest("1000");
    expect(taken.code).toBe("OK");
    const id = stakeIdOf(taken.events!);
    expect(funding()).toBe("4000");
    expect(core.ledger.posted({ owner: "alice", kind: stakeKind(id), asset: "USDT" })).toBe(1000_00000000n);
    // A stake keeps the rate it was taken at: the product's new rate is for new stakes.
    expect(core.apply({ ...stakeProduct("USDT", 0), yearlyRate: "0.18" }).code).toBe("OK");
    // Before midnight nothing is credited; at the next day's start, the half day from noon.
    expect(core.apply({ type: "stake.tick", at: NOON + 3_600_000 }).events).toEqual([]);
    const first = core.apply({ type: "stake.tick", at: NOON + DAY_MS / 2 + 5_000 });
    expect(first.events!.at(-1)).toMatchObject({ type: "stake.accrued", stakes: 1 });
    expect(core.staking.stake(id)).toMatchObject({ interest: 13698630n });
    core.apply({ type: "stake.tick", at: NOON + (3 * DAY_MS) / 2 + 5_000 });
    expect(core.staking.stake(id)).toMatchObject({ interest: 41095890n });
    expect(rewards()).toBe("-0.4109589");
    // Redeemed at 06:00 on the third day: a day and three quarters in all.
    expect(core.staking.pendingInterest(core.staking.stake(id)!, NOON + (7 * DAY_MS) / 4)).toBe(47945205n - 41095890n);
    const redeemed = core.apply({ type: "stake.redeem", memberId: "alice", stakeId: id, at: NOON + (7 * DAY_MS) / 4 });
    expect(paid(redeemed.events!)).toMatchObject({ kind: "redeemed", principal: 1000_00000000n, interest: 47945205n, forfeited: 0n, closed: true });
    expect(funding()).toBe("5000.47945205");
    expect(rewards()).toBe("-0.47945205");
    expect(core.staking.stake(id)).toBeUndefined();
    expect(core.staking.checkInvariants()).toEqual([]);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("pays part of a flexible stake with all its interest, and starts a new period on what is left", () => {
    const { core, invest, stakeIdOf, funding, paid } = setUp();
    const id = stakeIdOf(invest("1000").events!);
    const part = core.apply({ type: "stake.redeem", memberId: "alice", stakeId: id, amount: "400", at: NOON + DAY_MS / 2 });
    expect(paid(part.events!)).toMatchObject({ principal: 400_00000000n, interest: 13698630n, closed: false });
    expect(funding()).toBe("4400.1369863");
    expect(core.staking.stake(id)).toMatchObject({ principal: 600_00000000n, interest: 0n, periodStart: NOON + DAY_MS / 2 });
    core.apply({ type: "stake.tick", at: NOON + (3 * DAY_MS) / 2 });
    expect(core.staking.stake(id)!.interest).toBe(16438356n);
    expect(core.staking.stakedIn("USDT-0", "alice")).toBe(600_00000000n);
  });

  it("pays a fixed stake at maturity; redeemed early it forfeits its interest, shown before", () => {
    const { core, invest, stakeIdOf, funding, rewards, paid } = setUp();
    const fixed = stakeIdOf(invest("1000", "USDT-7").events!);
    const early = stakeIdOf(invest("1000", "USDT-7", NOON + 1_000).events!);
    core.apply({ type: "stake.tick", at: NOON + 3 * DAY_MS });
    expect(core.staking.stake(early)!.interest).toBeGreaterThan(0n);
    expect(core.apply({ type: "stake.redeem", memberId: "alice", stakeId: early, amount: "10", at: NOON + 3 * DAY_MS }).code).toBe("STAKE_FIXED_WHOLE");
    const gone = core.apply({ type: "stake.redeem", memberId: "alice", stakeId: early, at: NOON + 3 * DAY_MS });
    const forfeited = paid(gone.events!)!;
    expect(forfeited).toMatchObject({ kind: "early", principal: 1000_00000000n, interest: 0n, closed: true });
    // What it forfeits is all its interest so far: three days credited, and the hours since (never credited).
    expect(forfeited.type === "stake.paid" && forfeited.forfeited).toBe(interestFor(1000_00000000n, rate("0.1"), NOON + 1_000, NOON + 3 * DAY_MS));
    expect(funding()).toBe("4000");
    // At maturity the tick credits up to it (not a moment after) and pays.
    const matured = core.apply({ type: "stake.tick", at: NOON + 7 * DAY_MS + 30_000 });
    expect(paid(matured.events!)).toMatchObject({ stakeId: fixed, kind: "matured", principal: 1000_00000000n, interest: 191780821n, closed: true });
    expect(funding()).toBe("5001.91780821");
    expect(rewards()).toBe("-1.91780821");
    expect(core.staking.checkInvariants()).toEqual([]);
  });

  it("pays a day's maturities over several ticks when they are many, each with its interest to its maturity", () => {
    const core = stakingCore();
    const count = MATURITIES_PER_TICK + 500;
    for (let m = 0; m < count; m++) {
      core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: String(m), asset: "USDT", kind: "funding", amount: "100" });
      expect(core.apply({ type: "stake.invest", memberId: String(m), productId: "USDT-7", amount: "100", at: NOON }).code).toBe("OK");
    }
    const due = NOON + 7 * DAY_MS;
    const paidIn = (at: number) => core.apply({ type: "stake.tick", at }).events!.filter((e) => e.type === "stake.paid").length;
    expect(paidIn(due + 1_000)).toBe(MATURITIES_PER_TICK);
    expect(core.staking.nextDue()).toBeLessThanOrEqual(due + 1_000);
    expect(paidIn(due + 6_000)).toBe(500);
    expect(core.staking.stakeCount).toBe(0);
    expect(core.staking.nextDue()).toBe(Number.POSITIVE_INFINITY);
    // Every one paid 7 days' interest, not a moment more: 100 at 10 % for 7 days of 2026.
    expect(core.ledger.posted({ owner: "7", kind: "funding", asset: "USDT" })).toBe(100_00000000n + 19178082n);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("refuses what a product does not allow, and changes nothing", () => {
    const { core, invest, stakeIdOf } = setUp();
    const hash = core.stateHash();
    expect(invest("5").code).toBe("STAKE_BELOW_MINIMUM");
    expect(invest("6000").code).toBe("STAKE_INSUFFICIENT");
    expect(invest("100", "nope").code).toBe("STAKE_UNKNOWN_PRODUCT");
    expect(invest("100.000000001").code).toBe("STAKE_BAD_AMOUNT");
    expect(invest("-1").code).toBe("STAKE_BAD_AMOUNT");
    expect(core.apply({ type: "stake.redeem", memberId: "alice", stakeId: "S-nope", at: NOON }).code).toBe("STAKE_UNKNOWN_STAKE");
    expect(core.stateHash()).toBe(hash);
    const id = stakeIdOf(invest("1000").events!);
    expect(core.apply({ type: "stake.redeem", memberId: "bob", stakeId: id, at: NOON }).code).toBe("STAKE_UNKNOWN_STAKE");
    expect(core.apply({ type: "stake.redeem", memberId: "alice", stakeId: id, amount: "1000.1", at: NOON }).code).toBe("STAKE_REDEEM_EXCEEDS");
    // A member's most and the product's cap.
    expect(core.apply({ ...stakeProduct("USDT", 0), maxPerMember: "1500", cap: "2000" }).code).toBe("OK");
    expect(invest("600").code).toBe("STAKE_ABOVE_MEMBER_LIMIT");
    core.apply({ type: "ledger.deposit", id: "bob-usdt", memberId: "bob", asset: "USDT", kind: "funding", amount: "5000" });
    expect(invest("1600", "USDT-0", NOON, "bob").code).toBe("STAKE_ABOVE_MEMBER_LIMIT");
    expect(invest("1001", "USDT-0", NOON, "bob").code).toBe("STAKE_ABOVE_CAP");
    expect(invest("1000", "USDT-0", NOON, "bob").code).toBe("OK");
    expect(core.apply({ ...stakeProduct("USDT", 0), enabled: false }).code).toBe("OK");
    expect(invest("100").code).toBe("STAKE_PRODUCT_DISABLED");
    // Products: never above 18 % a year, nor a changed coin or term.
    expect(core.apply({ ...stakeProduct("USDT", 30, "X"), yearlyRate: "0.180001" }).code).toBe("STAKE_BAD_RULES");
    expect(core.apply({ ...stakeProduct("USDT", 30, "X"), yearlyRate: "0.18" }).code).toBe("OK");
    expect(core.apply({ ...stakeProduct("USDT", 14, "X") }).code).toBe("STAKE_BAD_RULES");
    expect(core.apply({ ...stakeProduct("ETH", 30, "X") }).code).toBe("STAKE_BAD_RULES");
    expect(core.apply({ ...stakeProduct("DOGE", 30, "Y") }).code).toBe("STAKE_BAD_RULES");
    expect(core.apply({ ...stakeProduct("USDT", 30, "Y"), minAmount: "0" }).code).toBe("STAKE_BAD_RULES");
  });
});

/**
 * Staking commands at random: invests in every product (some refused: under the minimum, over a
 * member's most, not enough funds), redemptions of running stakes (in part, whole, too much, early),
 * the clock from minutes to days at a time (past the terms and across a leap day), product changes.
 */
function stakeStream(seed: number, length: number): Command[] {
  const r = random(seed);
  const members = ["1", "2", "3", "4"];
  const commands: Command[] = [];
  for (const m of members)
    for (const [asset, amount] of [
      ["USDT", "200000"],
      ["ETH", "300"],
    ] as const)
      commands.push({ type: "ledger.deposit", id: `d-${m}-${asset}`, memberId: m, asset, kind: "funding", amount });
  let at = Date.UTC(2028, 1, 20, 9, 30);
  for (let i = 0; i < length; i++) {
    const member = r.pick(members);
    const roll = r.next();
    if (roll < 0.4) {
      const productId = r.pick(["USDT-0", "USDT-7", "USDT-30", "ETH-90"]);
      const amount = productId === "ETH-90" ? (r.next() * 60).toFixed(4) : (r.next() * 40_000).toFixed(2);
      commands.push({ type: "stake.invest", memberId: member, productId, amount, at: at + r.int(60_000) });
    } else if (roll < 0.7) {
      const whole = r.next() < 0.5;
      commands.push({
        type: "stake.redeem",
        memberId: member,
        stakeId: "?",
        ...(whole ? {} : { amount: (r.next() * 20_000).toFixed(2) }),
        at: at + r.int(60_000),
      });
    } else if (roll < 0.97) {
      at += r.pick([60_000, 3_600_000, DAY_MS / 3, DAY_MS, 3 * DAY_MS]) + r.int(60_000);
      commands.push({ type: "stake.tick", at });
    } else {
      commands.push({ ...stakeProduct("USDT", 0), yearlyRate: r.pick(["0.05", "0.1", "0.18"]), enabled: r.next() < 0.85 });
    }
  }
  return commands;
}

describe("staking under random commands", () => {
  it.each([3, 11, 29])("keeps every asset summing to zero and each stake on its account, live, by replay and from a snapshot (seed %i)", (seed) => {
    const commands = stakeStream(seed, 2_000);
    const live = stakingCore();
    const accepted: Command[] = [];
    const seen = new Set<string>();
    const openIds: string[] = [];
    let snapshot: CoreSnapshot | null = null;
    let acceptedAtSnapshot = 0;
    for (const [i, raw] of commands.entries()) {
      // The stream's stake ids are placeholders: some stake's id (often another member's, or ended: refused), now and then a made-up one.
      const command: Command = "stakeId" in raw && openIds.length && i % 9 !== 0 ? { ...raw, stakeId: openIds[(i * 7919) % openIds.length]! } : raw;
      const outcome = live.apply(command);
      if (outcome.seq !== null) {
        accepted.push(command);
        for (const e of outcome.events) {
          seen.add(e.type === "stake.paid" ? `paid ${e.kind} ${e.closed}` : e.type);
          if (e.type === "stake.invested") openIds.push(e.stakeId);
        }
      } else seen.add(`refused ${outcome.code}`);
      if (i === 1_400) {
        snapshot = JSON.parse(JSON.stringify(live.snapshot())) as CoreSnapshot;
        acceptedAtSnapshot = accepted.length;
      }
      if (i % 200 === 0) {
        expect(live.ledger.checkInvariants()).toEqual([]);
        expect(live.staking.checkInvariants()).toEqual([]);
        // What a restore from the tables recomputes is what the live stakes hold.
        const through = live.staking.creditedThrough;
        for (const st of live.staking.allStakes()) {
          const accruedTo = Math.max(st.periodStart, st.maturesAt === null ? through : Math.min(through, st.maturesAt));
          expect([st.accruedTo, st.interest]).toEqual([accruedTo, interestFor(st.principal, st.rate, st.periodStart, accruedTo)]);
        }
      }
    }
    expect(live.ledger.checkInvariants()).toEqual([]);
    expect(live.staking.checkInvariants()).toEqual([]);
    for (const what of [
      "stake.invested",
      "stake.accrued",
      "paid redeemed true",
      "paid redeemed false",
      "paid matured true",
      "paid early true",
      "refused STAKE_BELOW_MINIMUM",
      "refused STAKE_FIXED_WHOLE",
      "refused STAKE_UNKNOWN_STAKE",
    ])
      expect([...seen].sort().join(" | "), what).toContain(what);

    const replay = stakingCore();
    for (const command of accepted) expect(replay.apply(command).code).toBe("OK");
    expect(replay.stateHash()).toBe(live.stateHash());

    const restored = ExchangeCore.fromSnapshot(snapshot!, "s");
    for (const command of accepted.slice(acceptedAtSnapshot)) expect(restored.apply(command).code).toBe("OK");
    expect(restored.stateHash()).toBe(live.stateHash());
  });
});
