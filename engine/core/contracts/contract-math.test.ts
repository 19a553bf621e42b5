import { describe, expect, it } from "vitest";
import { fromMinor, toMinor } from "../../../protocol/money";
import {
  averageEntry,
  bankruptcyPrice,
  contractSpecProblem,
  contractValue,
  costShare,
  divCeil,
  divFloor,
  fundingPayment,
  fundingRate,
  initialMargin,
  liquidationPrice,
  maintenanceMargin,
  markPrice,
  premiumIndex,
  RATE_ONE,
  tierOf,
  unrealisedPnl,
  type ContractSpec,
  type PositionCost,
  type RiskTier,
} from "./contract-math";

/*
 * The worked examples of docs/decisions/045-perpetual-contract-math.md, each figure computed
 * there with exact decimals, here with the engine's integers.
 */

const usdt = (text: string) => toMinor(text, 8);
const coin = usdt;
const rate = (percent: string) => toMinor(percent, 6); // a percentage at RATE units: 1 % = 10^6
const shown = (units: bigint) => fromMinor(units, 8);

/** BTC/USDT: 0.001 BTC a contract, prices in tenths, USDT at 8 decimals. */
const BTC_USDT: ContractSpec = { kind: "linear", priceScale: 1, settleScale: 8, multiplier: 1n, multiplierScale: 3 };
const btcPrice = (text: string) => toMinor(text, 1);
const LINEAR_TIERS: RiskTier[] = [
  { maxValue: usdt("50000"), maxLeverage: 100, mmr: rate("0.4") },
  { maxValue: usdt("250000"), maxLeverage: 50, mmr: rate("0.5") },
  { maxValue: usdt("1000000"), maxLeverage: 20, mmr: rate("1") },
  { maxValue: usdt("5000000"), maxLeverage: 10, mmr: rate("2.5") },
  { maxValue: usdt("100000000"), maxLeverage: 5, mmr: rate("5") },
];

/** BTC/USD inverse: 100 USD a contract, prices in tenths, margin in BTC at 8 decimals. */
const BTC_USD: ContractSpec = { kind: "inverse", priceScale: 1, settleScale: 8, multiplier: 100n, multiplierScale: 0 };
const INVERSE_TIERS: RiskTier[] = [
  { maxValue: coin("5"), maxLeverage: 100, mmr: rate("0.5") },
  { maxValue: coin("25"), maxLeverage: 50, mmr: rate("1") },
  { maxValue: coin("100"), maxLeverage: 20, mmr: rate("2") },
  { maxValue: coin("1000"), maxLeverage: 10, mmr: rate("5") },
];
/** ETH/USD inverse: 10 USD a contract, prices in hundredths. */
const ETH_USD: ContractSpec = { kind: "inverse", priceScale: 2, settleScale: 8, multiplier: 10n, multiplierScale: 0 };

describe("integer division that says which way it rounds", () => {
  it.each([
    [7n, 2n, 3n, 4n],
    [-7n, 2n, -4n, -3n],
    [7n, -2n, -4n, -3n],
    [-7n, -2n, 3n, 4n],
    [6n, 3n, 2n, 2n],
  ])("%i ÷ %i: floor %i, ceiling %i", (a, b, floor, ceiling) => {
    expect(divFloor(a, b)).toBe(floor);
    expect(divCeil(a, b)).toBe(ceiling);
  });
});

describe("contract specifications", () => {
  it("refuses what cannot be computed exactly", () => {
    expect(contractSpecProblem(BTC_USDT)).toBeNull();
    expect(contractSpecProblem(BTC_USD)).toBeNull();
    expect(contractSpecProblem({ ...BTC_USDT, multiplierScale: 8 })).toMatch(/decimals/);
    expect(contractSpecProblem({ ...BTC_USD, multiplierScale: 2 })).toMatch(/whole dollars/);
    expect(contractSpecProblem({ ...BTC_USDT, multiplier: 0n })).toMatch(/nothing/);
  });
});

describe("example L1: a linear 10x long, isolated", () => {
  // 100 contracts (0.1 BTC) bought at 50,000.0 with 10x.
  const position: PositionCost = { side: "long", qty: 100n, cost: contractValue(BTC_USDT, 100n, btcPrice("50000")) };
  const margin = initialMargin(position.cost, 10);

  it("is worth 5,000 USDT and holds 500 USDT of margin; maintenance is 20 USDT", () => {
    expect(shown(position.cost)).toBe("5000");
    expect(shown(margin)).toBe("500");
    expect(shown(maintenanceMargin(LINEAR_TIERS, position.cost))).toBe("20");
    expect(averageEntry(BTC_USDT, position)).toBe(btcPrice("50000"));
  });

  it("gains 200 USDT at a mark of 52,000.0 and loses 300 at 47,000.0", () => {
    expect(shown(unrealisedPnl(BTC_USDT, position, btcPrice("52000")))).toBe("200");
    expect(shown(unrealisedPnl(BTC_USDT, position, btcPrice("47000")))).toBe("-300");
  });

  it("is liquidated at 45,180.8 (45,180.72… rounded toward the mark) and bankrupt at 45,000.0", () => {
    expect(liquidationPrice(BTC_USDT, LINEAR_TIERS, position, margin, btcPrice("50000"))).toBe(btcPrice("45180.8"));
    expect(bankruptcyPrice(BTC_USDT, position, margin)).toBe(btcPrice("45000"));
    // At the liquidation price the margin left is at most the maintenance margin; a tick above, more.
    const left = (price: string) => margin + unrealisedPnl(BTC_USDT, position, btcPrice(price));
    const maintenance = (price: string) => maintenanceMargin(LINEAR_TIERS, contractValue(BTC_USDT, position.qty, btcPrice(price)));
    expect(left("45180.7") <= maintenance("45180.7")).toBe(true);
    expect(left("45180.8") > maintenance("45180.8")).toBe(true);
  });

  it("pays 0.52 USDT of funding at a mark of 52,000.0 and a rate of 0.01 %", () => {
    expect(shown(fundingPayment(BTC_USDT, position, btcPrice("52000"), rate("0.01")))).toBe("-0.52");
    expect(shown(fundingPayment(BTC_USDT, { side: "short", qty: 100n }, btcPrice("52000"), rate("0.01")))).toBe("0.52");
  });

  it("cannot be liquidated at 1x", () => {
    expect(liquidationPrice(BTC_USDT, LINEAR_TIERS, position, position.cost, btcPrice("50000"))).toBeNull();
  });
});

describe("example L2: a linear 50x short in the second risk band", () => {
  // 2,000 contracts (2 BTC) sold at 60,000.0 with 50x: 120,000 USDT, the 0.5 % band.
  const position: PositionCost = { side: "short", qty: 2000n, cost: contractValue(BTC_USDT, 2000n, btcPrice("60000")) };
  const margin = initialMargin(position.cost, 50);

  it("holds 2,400 USDT; maintenance is 120,000 × 0.5 % − 50 = 550 USDT (continuous at the band's edge)", () => {
    expect(shown(margin)).toBe("2400");
    expect(tierOf(LINEAR_TIERS, position.cost)).toMatchObject({ index: 1, deduction: usdt("50") });
    expect(shown(maintenanceMargin(LINEAR_TIERS, position.cost))).toBe("550");
    // Both bands give 200 USDT at their shared edge of 50,000 USDT.
    expect(shown(maintenanceMargin(LINEAR_TIERS, usdt("50000")))).toBe("200");
    expect(shown(maintenanceMargin(LINEAR_TIERS, usdt("50000.00000001")))).toBe("200.00000001");
  });

  it("is liquidated at 60,920.3 (60,920.39… rounded toward the mark) and bankrupt at 61,200.0", () => {
    expect(liquidationPrice(BTC_USDT, LINEAR_TIERS, position, margin, btcPrice("60000"))).toBe(btcPrice("60920.3"));
    expect(bankruptcyPrice(BTC_USDT, position, margin)).toBe(btcPrice("61200"));
  });

  it("closes half at 59,000.0 for a profit of 1,000 USDT, its cost shared exactly", () => {
    const share = costShare(position, 1000n);
    expect(shown(share)).toBe("60000");
    expect(shown(share - contractValue(BTC_USDT, 1000n, btcPrice("59000")))).toBe("1000");
    expect(costShare({ ...position, qty: 1000n, cost: position.cost - share }, 1000n)).toBe(position.cost - share);
  });
});

describe("example I1: an inverse 20x long, margin in BTC", () => {
  // 1,000 contracts of 100 USD (100,000 USD) bought at 50,000.0 with 20x.
  const position: PositionCost = { side: "long", qty: 1000n, cost: contractValue(BTC_USD, 1000n, btcPrice("50000")) };
  const margin = initialMargin(position.cost, 20);

  it("costs 2 BTC, holds 0.1 BTC of margin; maintenance 0.01 BTC", () => {
    expect(shown(position.cost)).toBe("2");
    expect(shown(margin)).toBe("0.1");
    expect(shown(maintenanceMargin(INVERSE_TIERS, position.cost))).toBe("0.01");
    expect(averageEntry(BTC_USD, position)).toBe(btcPrice("50000"));
  });

  it("gains 2 − 100,000 ÷ 55,000 = 0.18181819 BTC at 55,000.0 (the value rounded down)", () => {
    expect(shown(contractValue(BTC_USD, 1000n, btcPrice("55000")))).toBe("1.81818181");
    expect(shown(unrealisedPnl(BTC_USD, position, btcPrice("55000")))).toBe("0.18181819");
  });

  it("is liquidated at 47,857.2 (47,857.14…) and bankrupt at 47,619.1 (47,619.04…)", () => {
    expect(liquidationPrice(BTC_USD, INVERSE_TIERS, position, margin, btcPrice("50000"))).toBe(btcPrice("47857.2"));
    expect(bankruptcyPrice(BTC_USD, position, margin)).toBe(btcPrice("47619.1"));
  });

  it("pays 0.00018182 BTC of funding at 55,000.0 and 0.01 % (0.000181818… rounded up); a short receives 0.00018181", () => {
    expect(shown(fundingPayment(BTC_USD, position, btcPrice("55000"), rate("0.01")))).toBe("-0.00018182");
    expect(shown(fundingPayment(BTC_USD, { side: "short", qty: 1000n }, btcPrice("55000"), rate("0.01")))).toBe("0.00018181");
  });
});

describe("example I2: an inverse 25x short of ETH", () => {
  // 500 contracts of 10 USD (5,000 USD) sold at 2,500.00 with 25x.
  const ethPrice = (text: string) => toMinor(text, 2);
  const position: PositionCost = { side: "short", qty: 500n, cost: contractValue(ETH_USD, 500n, ethPrice("2500")) };
  const margin = initialMargin(position.cost, 25);

  it("costs 2 ETH and holds 0.08 ETH; liquidated at 2,591.14 (2,591.145…), bankrupt at 2,604.16 (2,604.166…)", () => {
    expect(shown(position.cost)).toBe("2");
    expect(shown(margin)).toBe("0.08");
    expect(liquidationPrice(ETH_USD, INVERSE_TIERS, position, margin, ethPrice("2500"))).toBe(ethPrice("2591.14"));
    expect(bankruptcyPrice(ETH_USD, position, margin)).toBe(ethPrice("2604.16"));
  });

  it("has no liquidation or bankruptcy price when its margin covers any rise", () => {
    expect(liquidationPrice(ETH_USD, INVERSE_TIERS, position, position.cost * 2n, ethPrice("2500"))).toBeNull();
    expect(bankruptcyPrice(ETH_USD, position, position.cost)).toBeNull();
  });
});

describe("funding rate, premium and mark", () => {
  it.each([
    ["0.03", "0.01"],
    ["0.2", "0.15"],
    ["0.5", "0.375"],
    ["-0.01", "0.01"],
    ["-0.2", "-0.15"],
    ["-1", "-0.375"],
  ])("an average premium of %s %% gives a rate of %s %%", (premium, expected) => {
    expect(fundingRate(rate(premium))).toBe(rate(expected));
  });

  it("reads a premium as (impact − index) ÷ index and holds the mark within the cap of the index", () => {
    expect(premiumIndex(btcPrice("50050"), btcPrice("50000"))).toBe(rate("0.1"));
    expect(markPrice(btcPrice("50000"), btcPrice("30"), rate("0.5"))).toBe(btcPrice("50030"));
    expect(markPrice(btcPrice("50000"), btcPrice("400"), rate("0.5"))).toBe(btcPrice("50250"));
    expect(markPrice(btcPrice("50000"), btcPrice("-400"), rate("0.5"))).toBe(btcPrice("49750"));
  });

  it("pays no more than is paid in: longs' payments cover shorts' receipts at any rate", () => {
    for (const r of [rate("0.01"), rate("-0.0137"), rate("0.375"), 1n, -1n]) {
      const longs = [7n, 13n, 101n].map((qty) => fundingPayment(BTC_USD, { side: "long", qty }, btcPrice("43210.7"), r));
      const shorts = [60n, 61n].map((qty) => fundingPayment(BTC_USD, { side: "short", qty }, btcPrice("43210.7"), r));
      const total = [...longs, ...shorts].reduce((a, b) => a + b, 0n);
      expect(total <= 0n).toBe(true);
      expect(-total).toBeLessThanOrEqual(5n);
    }
    expect(RATE_ONE).toBe(100_000_000n);
  });
});
