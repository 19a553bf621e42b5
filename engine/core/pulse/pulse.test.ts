import { describe, expect, it } from "vitest";
import { random } from "../../testing/seeded-stream";
import { Ledger, type TransferEvent } from "../ledger/ledger";
import { outcomeOf, profitOf, PulsePick, pulseKind, pulsePoolAccount, SETTLEMENTS_PER_COMMAND, STALE_MS, type PulseEvent, type PulseMarket } from "./pulse";

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const usdt = (n: number | string) => BigInt(Math.round(Number(n) * 1e8));
const BTC: PulseMarket = {
  symbol: "BTC/USDT",
  asset: "USDT",
  durations: [
    { seconds: 30, payoutRate: 8500n },
    { seconds: 60, payoutRate: 8800n },
  ],
  minBet: usdt(1),
  maxBet: usdt(1000),
  exposureLimit: usdt(2000),
  enabled: true,
};

function setUp(members = ["alice", "bob"]) {
  const ledger = new Ledger();
  let n = 0;
  const pulse = new PulsePick(ledger, () => `p${++n}`);
  pulse.configureMarket(BTC);
  for (const m of members) ledger.deposit(`d-${m}`, { owner: m, kind: "funding", asset: "USDT" }, usdt(5000));
  const out: Array<PulseEvent | TransferEvent> = [];
  let ids = 0;
  const open = (owner: string, direction: "call" | "put", bet: string, at = T0, seconds = 30, entry = 64_000_00n, readAt = at) =>
    pulse.open(`P${++ids}`, owner, { symbol: "BTC/USDT", direction, seconds, bet: usdt(bet), entryPrice: entry, readAt }, at, out);
  const funding = (m: string) => ledger.posted({ owner: m, kind: "funding", asset: "USDT" });
  const pool = () => ledger.posted(pulsePoolAccount("USDT"));
  const settled = () => out.filter((e): e is Extract<PulseEvent, { type: "pulse.settled" }> => e.type === "pulse.settled");
  return { ledger, pulse, out, open, funding, pool, settled };
}

describe("a pulse order's outcome", () => {
  it.each([
    ["call, the price ends above", "call", 101n, "win"],
    ["call, the price ends below", "call", 99n, "lose"],
    ["put, the price ends below", "put", 99n, "win"],
    ["put, the price ends above", "put", 101n, "lose"],
    ["a tie refunds", "call", 100n, "tie"],
    ["no fresh close price refunds", "put", null, "refund"],
  ] as const)("%s", (_, direction, close, outcome) => {
    expect(outcomeOf({ direction, entryPrice: 100n, closeAt: T0 }, close)).toBe(outcome);
  });

  it("pays a win's profit rounded down", () => {
    expect(profitOf(usdt("1.00000001"), 8500n)).toBe(85000000n);
    expect(profitOf(3n, 8500n)).toBe(2n);
  });
});

describe("the pulse pick in the core", () => {
  it("holds the bet at entry and settles each outcome once, with the ledger sound", () => {
    const { ledger, pulse, open, funding, pool, settled } = setUp();
    expect(open("alice", "call", "100")).toBe("OK");
    expect(open("alice", "put", "100")).toBe("OK");
    expect(open("bob", "call", "50", T0, 60)).toBe("OK");
    expect(funding("alice")).toBe(usdt(4800));
    expect(ledger.posted({ owner: "alice", kind: pulseKind("P1"), asset: "USDT" })).toBe(usdt(100));
    expect(pulse.exposureOf("BTC/USDT", "call")).toBe(usdt(85) + usdt(44));
    expect(pulse.nextClose()).toBe(T0 + 30_000);
    // At 30 s the two 30-second orders close: the price rose, the call wins, the put loses.
    expect(pulse.closesDue(T0 + 30_500)).toEqual([{ symbol: "BTC/USDT", second: (T0 + 30_000) / 1000 }]);
    const out: Array<PulseEvent | TransferEvent> = [];
    expect(pulse.settle(T0 + 30_500, [{ symbol: "BTC/USDT", second: (T0 + 30_000) / 1000, price: 64_010_00n, readAt: T0 + 30_000 }], out)).toBe(2);
    expect(out.filter((e) => e.type === "pulse.settled")).toMatchObject([
      { orderId: "P1", outcome: "win", paid: usdt(185) },
      { orderId: "P2", outcome: "lose", paid: 0n },
    ]);
    expect(funding("alice")).toBe(usdt(4985));
    expect(pool()).toBe(usdt(15));
    // Bob's minute closes with no fresh price (the engine was down): refunded.
    const later: Array<PulseEvent | TransferEvent> = [];
    pulse.settle(T0 + 120_000, [{ symbol: "BTC/USDT", second: (T0 + 60_000) / 1000, price: 1n, readAt: T0 + 60_000 - STALE_MS - 1 }], later);
    expect(later.filter((e) => e.type === "pulse.settled")).toMatchObject([{ orderId: "P3", outcome: "refund", paid: usdt(50), closePrice: null }]);
    expect(funding("bob")).toBe(usdt(5000));
    expect(pulse.openCount).toBe(0);
    expect(pulse.exposureOf("BTC/USDT", "call")).toBe(0n);
    expect(pulse.nextClose()).toBe(Number.POSITIVE_INFINITY);
    expect(settled()).toEqual([]);
    expect(pulse.checkInvariants()).toEqual([]);
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("refuses what the market does not allow, and changes nothing", () => {
    const { ledger, pulse, open, funding } = setUp(["carol"]);
    const refusals: Array<[string, () => string]> = [
      ["PULSE_BAD_DURATION", () => open("carol", "call", "10", T0, 45)],
      ["PULSE_AMOUNT_LIMITS", () => open("carol", "call", "0.5")],
      ["PULSE_AMOUNT_LIMITS", () => open("carol", "call", "1001")],
      ["PULSE_BAD_AMOUNT", () => open("carol", "call", "0")],
      ["PULSE_NO_PRICE", () => open("carol", "call", "10", T0, 30, 64_000_00n, T0 - STALE_MS - 1)],
      ["PULSE_NO_PRICE", () => open("carol", "call", "10", T0, 30, 0n)],
    ];
    for (const [code, attempt] of refusals) expect(attempt()).toBe(code);
    expect(pulse.open("X", "carol", { symbol: "ETH/USDT", direction: "call", seconds: 30, bet: usdt(10), entryPrice: 1n, readAt: T0 }, T0, [])).toBe(
      "PULSE_UNKNOWN_MARKET",
    );
    // The exposure limit: 2,000 of profit a side; 1,000 at 85 % is 850 each.
    expect(open("carol", "call", "1000")).toBe("OK");
    expect(open("carol", "call", "1000")).toBe("OK");
    expect(open("carol", "call", "1000")).toBe("PULSE_EXPOSURE");
    expect(open("carol", "put", "1000")).toBe("OK");
    expect(open("carol", "put", "1000")).toBe("OK");
    expect(open("carol", "put", "1000")).toBe("PULSE_EXPOSURE");
    expect(funding("carol")).toBe(usdt(1000));
    // A member with nothing in their funding account.
    expect(open("dan", "call", "10")).toBe("PULSE_INSUFFICIENT");
    pulse.configureMarket({ ...BTC, enabled: false });
    expect(open("carol", "call", "10")).toBe("PULSE_MARKET_CLOSED");
    expect(ledger.checkInvariants()).toEqual([]);
  });

  it("refuses a market's impossible rules", () => {
    expect(PulsePick.marketProblem(BTC)).toBeNull();
    expect(PulsePick.marketProblem({ ...BTC, durations: [] })).not.toBeNull();
    expect(PulsePick.marketProblem({ ...BTC, durations: [{ seconds: 5, payoutRate: 8500n }] })).not.toBeNull();
    expect(PulsePick.marketProblem({ ...BTC, durations: [{ seconds: 30, payoutRate: 10_001n }] })).not.toBeNull();
    expect(PulsePick.marketProblem({ ...BTC, minBet: usdt(10), maxBet: usdt(5) })).not.toBeNull();
    expect(PulsePick.marketProblem({ ...BTC, exposureLimit: usdt(10) })).not.toBeNull();
  });

  it("settles many orders closing in one second over several commands, each once", () => {
    const members = Array.from({ length: 50 }, (_, i) => String(i));
    const { pulse, open, ledger } = setUp(members);
    pulse.configureMarket({ ...BTC, exposureLimit: usdt(100_000_000) });
    const count = SETTLEMENTS_PER_COMMAND + 700;
    for (let i = 0; i < count; i++) expect(open(members[i % 50]!, i % 2 ? "call" : "put", "1", T0 + (i % 3))).toBe("OK");
    const price = [{ symbol: "BTC/USDT", second: (T0 + 30_000) / 1000, price: 64_001_00n, readAt: T0 + 30_001 }];
    const first: Array<PulseEvent | TransferEvent> = [];
    expect(pulse.settle(T0 + 31_000, price, first)).toBe(SETTLEMENTS_PER_COMMAND);
    expect(pulse.nextClose()).toBeLessThanOrEqual(T0 + 31_000);
    expect(pulse.settle(T0 + 31_500, price, [])).toBe(700);
    expect(pulse.openCount).toBe(0);
    expect(ledger.checkInvariants()).toEqual([]);
  });
});

describe("the pulse pick under random orders and prices", () => {
  it("keeps the ledger summing to zero, settles each order once, and restores from a snapshot to the same state", () => {
    const members = ["1", "2", "3", "4", "5"];
    const { ledger, pulse } = setUp(members);
    const r = random(33);
    const seen = new Set<string>();
    let at = T0;
    let ids = 0;
    let price = 64_000_00n;
    let snapshot: ReturnType<PulsePick["snapshot"]> | null = null;
    const opened = new Set<string>();
    const settledIds = new Set<string>();
    for (let i = 0; i < 3_000; i++) {
      at += 100 + r.int(2_000);
      price += BigInt(r.int(7) - 3) * 100n;
      const out: Array<PulseEvent | TransferEvent> = [];
      if (r.next() < 0.55) {
        const id = `P${++ids}`;
        const code = pulse.open(
          id,
          r.pick(members),
          {
            symbol: "BTC/USDT",
            direction: r.pick(["call", "put"] as const),
            seconds: r.pick([30, 60]),
            bet: usdt(r.pick(["1", "5", "20", "0.5"])),
            entryPrice: price,
            readAt: at - r.int(6_000),
          },
          at,
          out,
        );
        seen.add(code);
        if (code === "OK") opened.add(id);
      } else {
        // The index as read each second, now and then missing (a stall): those closes refund.
        const prices = pulse
          .closesDue(at)
          .flatMap(({ symbol, second }) => (r.next() < 0.9 ? [{ symbol, second, price: price + BigInt(r.int(3) - 1) * 100n, readAt: second * 1000 }] : []));
        pulse.settle(at, prices, out);
      }
      for (const e of out)
        if (e.type === "pulse.settled") {
          expect(settledIds.has(e.orderId)).toBe(false);
          settledIds.add(e.orderId);
          seen.add(e.outcome);
        }
      if (i === 1_500) snapshot = JSON.parse(JSON.stringify(pulse.snapshot()));
      if (i % 250 === 0) {
        expect(pulse.checkInvariants()).toEqual([]);
        expect(ledger.checkInvariants()).toEqual([]);
      }
    }
    for (const what of ["OK", "PULSE_NO_PRICE", "PULSE_AMOUNT_LIMITS", "win", "lose", "refund"]) expect([...seen].join(" "), what).toContain(what);
    let sum = 0n;
    for (const [, posted] of ledger.accounts()) sum += posted;
    expect(sum).toBe(0n);
    expect(pulse.checkInvariants()).toEqual([]);
    // Every order opened was settled or is still open.
    for (const id of opened) expect(settledIds.has(id) || pulse.order(id) !== undefined).toBe(true);
    // A snapshot restores to the same state (its orders' closes in the same order).
    const copy = new PulsePick(new Ledger(), () => "x");
    copy.restore(snapshot!);
    expect(copy.snapshot()).toEqual(snapshot);
    const again = new PulsePick(new Ledger(), () => "x");
    again.restore(copy.snapshot());
    expect(again.stateHash()).toBe(copy.stateHash());
  });
});
