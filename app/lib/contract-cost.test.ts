import { describe, expect, it } from "vitest";
import { maxOpenable, openingCost } from "./contract-cost";

const linear = { contract_type: 1 as const, contractSize: "0.001", settleScale: 4, takerFeeRate: "0.0005" };
const inverse = { contract_type: 2 as const, contractSize: "100", settleScale: 8, takerFeeRate: "0.0005" };

describe("contract order cost before placing", () => {
  it("linear: margin at the leverage plus the taker fee, in USDT, rounded up", () => {
    // 10 contracts of 0.001 BTC at 50,000 = 500 USDT; at 20x 25 USDT, plus 0.25 fee.
    expect(openingCost(linear, { price: "50000", qty: "10", leverage: 20 })).toBe("25.25");
    // 1 contract at 33,333.3 and 3x: 33.3333 / 3 = 11.1111 (up), fee 0.01666665 → 11.12776665 → 11.1278.
    expect(openingCost(linear, { price: "33333.3", qty: "1", leverage: 3 })).toBe("11.1278");
  });

  it("inverse: a face value in dollars costs coin, fewer coins the higher the price", () => {
    // 5 contracts of $100 at 50,000 = 0.01 BTC; at 10x 0.001, fee 0.000005.
    expect(openingCost(inverse, { price: "50000", qty: "5", leverage: 10 })).toBe("0.001005");
  });

  it("the most contracts available opens, rounded down, and nothing for a missing number", () => {
    expect(maxOpenable(linear, { price: "50000", available: "25.25", leverage: 20 })).toBe("10");
    expect(maxOpenable(linear, { price: "50000", available: "25.24", leverage: 20 })).toBe("9");
    expect(maxOpenable(linear, { price: "50000", available: "0", leverage: 20 })).toBe("0");
    expect(maxOpenable(linear, { price: null, available: "10", leverage: 20 })).toBeNull();
    expect(openingCost(linear, { price: "50000", qty: "1.5", leverage: 20 })).toBeNull();
  });
});
