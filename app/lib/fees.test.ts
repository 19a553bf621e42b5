import { describe, expect, it } from "vitest";
import { divideDecimal, estimateOrderFee, percentOf } from "./fees";

describe("fees", () => {
  it("takes a percentage exactly and rounds down like the engine", () => {
    expect(percentOf("0.01", "0.2", 8)).toBe("0.00002");
    expect(percentOf("200.005", "0.1", 8)).toBe("0.200005");
    expect(percentOf("0.00000123", "0.2", 8)).toBe("0"); // below one unit: no fee
    expect(percentOf("1", "0.15", 2)).toBe("0");
    expect(percentOf("1000", "0.15", 2)).toBe("1.5");
  });

  it("divides money by a price, rounded down", () => {
    expect(divideDecimal("100", "64000", 8)).toBe("0.0015625");
    expect(divideDecimal("100", "3", 2)).toBe("33.33");
    expect(divideDecimal("1", "0", 8)).toBeNull();
  });

  it("estimates an order's fee in the asset it is paid in", () => {
    const rules = { takerFee: "0.2", base: "BTC", quote: "USDT" };
    expect(estimateOrderFee({ ...rules, side: "buy", price: "64000", num: "0.5", money: null })).toEqual({ value: "0.001", unit: "BTC" });
    expect(estimateOrderFee({ ...rules, side: "buy", price: "64000", num: null, money: "100" })).toEqual({ value: "0.00000312", unit: "BTC" });
    expect(estimateOrderFee({ ...rules, side: "sell", price: "64000", num: "0.5", money: null })).toEqual({ value: "64", unit: "USDT" });
    expect(estimateOrderFee({ ...rules, side: "sell", price: null, num: "0.5", money: null })).toBeNull();
    expect(estimateOrderFee({ ...rules, side: "buy", price: null, num: null, money: "100" })).toBeNull();
  });
});
