import { describe, expect, it } from "vitest";
import { fromMinor } from "../../../protocol/money";
import { random } from "../../testing/seeded-stream";
import type { Command } from "../exchange/commands";
import type { CoreSnapshot } from "../exchange/core-snapshot";
import { ExchangeCore } from "../exchange/exchange-core";
import type { CoreEvent } from "../exchange/events";
import { allot, issueAccount, proceedsAccount, SETTLEMENTS_PER_TICK, subscriptionKind } from "./subscriptions";
import { projectRules, subscriptionsCore, WINDOW_END, WINDOW_START } from "./subscriptions-test-kit";

const coins = (v: bigint) => fromMinor(v, 8, { trim: true });
const asks = (...lots: number[]) => lots.map((l, i) => ({ id: `s${i}`, createdAt: i, lots: BigInt(l) }));

describe("the allotment", () => {
  it.each([
    ["undersubscribed: everyone gets what they asked", [10, 20, 30], 100, [10, 20, 30]],
    ["exactly subscribed", [50, 50], 100, [50, 50]],
    ["oversubscribed evenly", [100, 100], 100, [50, 50]],
    ["pro rata with no remainder", [300, 100], 100, [75, 25]],
    // 10 lots over 3 equal asks: 3 each, the lot left to the earliest (equal remainders).
    ["a lot left over among equals goes to the earliest", [5, 5, 5], 10, [4, 3, 3]],
    // 8 lots over 9 asked: 7 × 8 / 9 = 6.22 → 6 (remainder 2 of 9), 1 × 8 / 9 = 0.89 → 0 (remainder 8) twice: the two lots left to the two 8s.
    ["the lots left go to the largest remainders", [7, 1, 1], 8, [6, 1, 1]],
    ["a small ask may win nothing", [1000, 1], 10, [10, 0]],
    ["no asks", [], 10, []],
  ])("%s", (_, lots, supply, expected) => {
    const won = allot(asks(...(lots as number[])), BigInt(supply as number));
    expect(won.map(Number)).toEqual(expected);
    expect(won.reduce((s, w) => s + w, 0n)).toBe(
      BigInt(
        Math.min(
          supply as number,
          (lots as number[]).reduce((s, l) => s + l, 0),
        ),
      ),
    );
  });

  it("never gives more than asked and sums to the supply, over random books", () => {
    const r = random(53);
    for (let round = 0; round < 300; round++) {
      const book = Array.from({ length: 1 + r.int(40) }, (_, i) => ({ id: `s${i}`, createdAt: r.int(5), lots: BigInt(1 + r.int(1000)) }));
      const supply = BigInt(1 + r.int(20_000));
      const won = allot(book, supply);
      const asked = book.reduce((s, a) => s + a.lots, 0n);
      expect(won.reduce((s, w) => s + w, 0n)).toBe(asked < supply ? asked : supply);
      book.forEach((a, i) => {
        expect(won[i]!).toBeLessThanOrEqual(a.lots);
        // Within one lot of the exact share.
        if (asked > supply) expect(won[i]! * asked - a.lots * supply).toBeLessThan(asked);
      });
    }
  });
});

function setUp(projects = [projectRules()]) {
  const core = subscriptionsCore(projects);
  for (const m of ["alice", "bob", "carol"])
    core.apply({ type: "ledger.deposit", id: `${m}-usdt`, memberId: m, asset: "USDT", kind: "funding", amount: "1000" });
  const subscribe = (memberId: string, quantity: string, at = WINDOW_START + 60_000, projectId = "NXA-1") =>
    core.apply({ type: "subscription.subscribe", memberId, projectId, quantity, at });
  const idOf = (events: readonly CoreEvent[]) => events.find((e) => e.type === "subscription.subscribed")!.subscriptionId;
  const funding = (m: string, asset = "USDT") => coins(core.ledger.posted({ owner: m, kind: "funding", asset }));
  const settled = (events: readonly CoreEvent[]) => events.filter((e) => e.type === "subscription.settled");
  return { core, subscribe, idOf, funding, settled };
}

describe("subscriptions in the core", () => {
  it("holds the price, and when not oversubscribed allots everything and returns nothing", () => {
    const { core, subscribe, idOf, funding, settled } = setUp();
    const id = idOf(subscribe("alice", "40").events!);
    expect(funding("alice")).toBe("980");
    expect(core.ledger.posted({ owner: "alice", kind: subscriptionKind(id), asset: "USDT" })).toBe(20_00000000n);
    // Nothing before the window's end.
    expect(core.subscriptions.nextDue()).toBe(WINDOW_END);
    const tick = core.apply({ type: "subscription.tick", at: WINDOW_END + 500 });
    expect(tick.events!.find((e) => e.type === "subscription.allotted")).toMatchObject({ requested: 40_00000000n, allotted: 40_00000000n, subscriptions: 1 });
    expect(settled(tick.events!)).toMatchObject([{ subscriptionId: id, status: "won", wonQuantity: 40_00000000n, wonAmount: 20_00000000n, refund: 0n }]);
    expect(funding("alice", "NXA")).toBe("40");
    expect(funding("alice")).toBe("980");
    expect(coins(core.ledger.posted(proceedsAccount("USDT")))).toBe("20");
    expect(coins(core.ledger.posted(issueAccount("NXA")))).toBe("-40");
    expect(core.subscriptions.subscription(id)).toBeUndefined();
    expect(core.subscriptions.checkInvariants()).toEqual([]);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("oversubscribed: allots pro rata and returns the rest at once", () => {
    const { core, subscribe, idOf, funding, settled } = setUp([projectRules("NXA-1", { supply: "100", maxPerMember: "1000" })]);
    const a = idOf(subscribe("alice", "150").events!);
    const b = idOf(subscribe("bob", "50").events!);
    const done = settled(core.apply({ type: "subscription.tick", at: WINDOW_END }).events!);
    expect(done).toMatchObject([
      { subscriptionId: a, status: "already_returned", wonQuantity: 75_00000000n, refund: 37_50000000n },
      { subscriptionId: b, status: "already_returned", wonQuantity: 25_00000000n, refund: 12_50000000n },
    ]);
    expect([funding("alice"), funding("alice", "NXA"), funding("bob"), funding("bob", "NXA")]).toEqual(["962.5", "75", "987.5", "25"]);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("returning by application: the return waits, the member applies once for all, an operator pays", () => {
    const { core, subscribe, idOf, funding } = setUp([projectRules("NXA-1", { supply: "10", returnByApplication: true })]);
    const a = idOf(subscribe("alice", "30").events!);
    const b = idOf(subscribe("bob", "10").events!);
    expect(core.apply({ type: "subscription.return_apply", memberId: "alice", at: WINDOW_START + 70_000 }).code).toBe("SUB_NOTHING_TO_RETURN");
    core.apply({ type: "subscription.tick", at: WINDOW_END });
    // 10 lots over 40 asked: alice 7.5 → 7 (remainder 20), bob 2.5 → 2 (remainder 20): the lot left to the earlier, alice.
    expect(core.subscriptions.subscription(a)).toMatchObject({ status: "allotted", wonQuantity: 8_00000000n, refund: 11_00000000n });
    expect(core.subscriptions.subscription(b)).toMatchObject({ status: "allotted", wonQuantity: 2_00000000n, refund: 4_00000000n });
    expect(funding("alice")).toBe("985");
    const applied = core.apply({ type: "subscription.return_apply", memberId: "alice", at: WINDOW_END + 1_000 });
    const applicationId = applied.events!.find((e) => e.type === "subscription.return_applied")!.applicationId;
    expect(core.subscriptions.subscription(a)).toMatchObject({ status: "returning", applicationId });
    // Applied once: again is nothing to return.
    expect(core.apply({ type: "subscription.return_apply", memberId: "alice", at: WINDOW_END + 2_000 }).code).toBe("SUB_NOTHING_TO_RETURN");
    expect(core.subscriptions.checkInvariants()).toEqual([]);
    const paid = core.apply({ type: "subscription.return_pay", applicationId });
    expect(paid.events!.at(-1)).toMatchObject({ type: "subscription.returned", memberId: "alice", subscriptionIds: [a] });
    expect(funding("alice")).toBe("996");
    expect(core.subscriptions.subscription(a)).toBeUndefined();
    expect(core.apply({ type: "subscription.return_pay", applicationId }).code).toBe("SUB_UNKNOWN_APPLICATION");
    expect(core.subscriptions.checkInvariants()).toEqual([]);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("settles a large allotment over several ticks", () => {
    const core = subscriptionsCore([projectRules("NXA-1", { supply: "100" })]);
    const count = SETTLEMENTS_PER_TICK + 300;
    for (let m = 0; m < count; m++) {
      core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: String(m), asset: "USDT", kind: "funding", amount: "10" });
      expect(core.apply({ type: "subscription.subscribe", memberId: String(m), projectId: "NXA-1", quantity: "1", at: WINDOW_START }).code).toBe("OK");
    }
    const settledIn = (at: number) => core.apply({ type: "subscription.tick", at }).events!.filter((e) => e.type === "subscription.settled").length;
    expect(settledIn(WINDOW_END)).toBe(SETTLEMENTS_PER_TICK);
    expect(core.subscriptions.nextDue()).toBe(0);
    expect(settledIn(WINDOW_END + 5_000)).toBe(300);
    expect(core.subscriptions.nextDue()).toBe(Number.POSITIVE_INFINITY);
    expect(core.subscriptions.openCount).toBe(0);
    // 100 lots among 2,300 asks of one: the 100 earliest win.
    expect(core.ledger.posted({ owner: "0", kind: "funding", asset: "NXA" })).toBe(1_00000000n);
    expect(core.ledger.posted({ owner: String(count - 1), kind: "funding", asset: "NXA" })).toBe(0n);
    expect(core.ledger.checkInvariants()).toEqual([]);
  });

  it("refuses what a project does not allow, and changes nothing", () => {
    const { core, subscribe } = setUp();
    const before = core.stateHash();
    const refusals: Array<[string, string, number?]> = [
      ["SUB_NOT_OPEN", "10", WINDOW_START - 1],
      ["SUB_NOT_OPEN", "10", WINDOW_END],
      ["SUB_BAD_QUANTITY", "0"],
      ["SUB_BAD_QUANTITY", "-5"],
      ["SUB_BAD_QUANTITY", "1.5"],
      ["SUB_BAD_QUANTITY", "1.000000001"],
      ["SUB_ABOVE_MEMBER_LIMIT", "101"],
    ];
    for (const [code, quantity, at] of refusals) expect([subscribe("alice", quantity, at).code, quantity]).toEqual([code, quantity]);
    expect(core.apply({ type: "subscription.subscribe", memberId: "alice", projectId: "nope", quantity: "1", at: WINDOW_START }).code).toBe(
      "SUB_UNKNOWN_PROJECT",
    );
    expect(core.stateHash()).toBe(before);
    const poor = subscriptionsCore();
    poor.apply({ type: "ledger.deposit", id: "p", memberId: "dan", asset: "USDT", kind: "funding", amount: "10" });
    expect(poor.apply({ type: "subscription.subscribe", memberId: "dan", projectId: "NXA-1", quantity: "21", at: WINDOW_START }).code).toBe("SUB_INSUFFICIENT");
    const min = subscriptionsCore([projectRules("NXA-1", { minPerMember: "5" })]);
    min.apply({ type: "ledger.deposit", id: "m", memberId: "eve", asset: "USDT", kind: "funding", amount: "10" });
    expect(min.apply({ type: "subscription.subscribe", memberId: "eve", projectId: "NXA-1", quantity: "4", at: WINDOW_START }).code).toBe("SUB_BELOW_MINIMUM");
  });

  it("refuses a project's impossible rules, and a change once its window has opened", () => {
    const core = subscriptionsCore();
    const refused = (overrides: Parameters<typeof projectRules>[1]) => core.apply(projectRules("NEW", overrides)).code;
    expect(refused({ lot: "0.000001", price: "0.00000001" })).toBe("SUB_BAD_RULES"); // a lot's price below the paying coin's decimals
    expect(refused({ supply: "10.5" })).toBe("SUB_BAD_RULES");
    expect(refused({ minPerMember: "200" })).toBe("SUB_BAD_RULES");
    expect(refused({ endAt: WINDOW_START })).toBe("SUB_BAD_RULES");
    expect(refused({ quoteAsset: "NXA" })).toBe("SUB_BAD_RULES");
    expect(refused({ asset: "NOPE" })).toBe("SUB_BAD_RULES");
    expect(refused({ price: "0.123456789" })).toBe("SUB_BAD_RULES");
    expect(refused({ endAt: WINDOW_START + 1, startAt: WINDOW_START - 10, at: WINDOW_START + 5 })).toBe("SUB_BAD_RULES");
    // Before its window: a change applies; after it has opened: refused.
    expect(core.apply(projectRules("NXA-1", { supply: "2000" })).code).toBe("OK");
    expect(core.subscriptions.projects.get("NXA-1")!.supply).toBe(2000_00000000n);
    expect(core.apply(projectRules("NXA-1", { supply: "3000", at: WINDOW_START })).code).toBe("SUB_PROJECT_STARTED");
  });
});

describe("subscriptions under random commands", () => {
  it("keep every coin summing to zero, reach every status, and replay and restore to the same state", () => {
    const projects = [
      projectRules("NXA-1", { supply: "300" }),
      projectRules("TOP5-1", { asset: "TOP5", projectType: 2, supply: "50", price: "2.5", returnByApplication: true, endAt: WINDOW_END + 86_400_000 }),
      projectRules("NXA-2", { supply: "100000", startAt: WINDOW_END, endAt: WINDOW_END + 2 * 86_400_000 }),
    ];
    const live = subscriptionsCore(projects);
    const r = random(4242);
    const members = Array.from({ length: 12 }, (_, i) => String(100 + i));
    const accepted: Command[] = [];
    for (const m of members) {
      const deposit: Command = { type: "ledger.deposit", id: `d${m}`, memberId: m, asset: "USDT", kind: "funding", amount: "500" };
      live.apply(deposit);
      accepted.push(deposit);
    }
    const seen = new Set<string>();
    let at = WINDOW_START;
    let snapshot: CoreSnapshot | null = null;
    let acceptedAtSnapshot = 0;
    for (let i = 0; i < 1_500; i++) {
      at += r.int(900_000);
      const roll = r.next();
      const pending = [...live.subscriptions.pendingApplications()];
      const command: Command =
        roll < 0.6
          ? {
              type: "subscription.subscribe",
              memberId: r.pick(members),
              projectId: r.pick(["NXA-1", "TOP5-1", "NXA-2", "NXA-2"]),
              quantity: r.pick(["1", "5", "20", "60", "0.5", "0"]),
              at,
            }
          : roll < 0.8
            ? { type: "subscription.tick", at }
            : roll < 0.92
              ? { type: "subscription.return_apply", memberId: r.pick(members), at }
              : { type: "subscription.return_pay", applicationId: pending.length ? r.pick(pending).id : "R-none" };
      const outcome = live.apply(command);
      if (outcome.seq !== null) {
        accepted.push(command);
        for (const e of outcome.events) seen.add(e.type === "subscription.settled" ? `settled ${e.status}` : e.type);
      } else seen.add(`refused ${outcome.code}`);
      if (i === 700) {
        snapshot = JSON.parse(JSON.stringify(live.snapshot())) as CoreSnapshot;
        acceptedAtSnapshot = accepted.length;
      }
      if (i % 150 === 0) {
        expect(live.ledger.checkInvariants()).toEqual([]);
        expect(live.subscriptions.checkInvariants()).toEqual([]);
      }
    }
    const sums = new Map<string, bigint>();
    for (const [key, posted] of live.ledger.accounts()) {
      const asset = key.slice(key.lastIndexOf("/") + 1);
      sums.set(asset, (sums.get(asset) ?? 0n) + posted);
    }
    // Deposits come from the world outside, the coins issued from the issue account: each coin sums to zero.
    for (const [asset, sum] of sums) expect([asset, sum]).toEqual([asset, 0n]);
    expect(live.subscriptions.checkInvariants()).toEqual([]);
    for (const what of [
      "subscription.subscribed",
      "subscription.allotted",
      "settled won",
      "settled already_returned",
      "settled allotted",
      "subscription.return_applied",
      "subscription.returned",
      "refused SUB_NOT_OPEN",
      "refused SUB_BAD_QUANTITY",
      "refused SUB_ABOVE_MEMBER_LIMIT",
      "refused SUB_NOTHING_TO_RETURN",
    ])
      expect([...seen].sort().join(" | "), what).toContain(what);

    const replay = subscriptionsCore(projects);
    for (const command of accepted) expect(replay.apply(command).code).toBe("OK");
    expect(replay.stateHash()).toBe(live.stateHash());

    const restored = ExchangeCore.fromSnapshot(snapshot!, "u");
    for (const command of accepted.slice(acceptedAtSnapshot)) expect(restored.apply(command).code).toBe("OK");
    expect(restored.stateHash()).toBe(live.stateHash());
  });
});
