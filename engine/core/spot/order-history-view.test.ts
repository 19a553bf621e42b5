import { describe, expect, it } from "vitest";
import { canonicalDecimal, csvTime, dayRange, exportFilename, feeCoinOf, memberTrade, type StoredTrade } from "./order-history-view";

const trade: StoredTrade = {
  id: "7",
  symbol: "BTC/USDT",
  takerOrderId: "taker1",
  makerOrderId: "maker1",
  buyer: "11",
  seller: "22",
  price: "60000.010000000000000000",
  quantity: "0.050000000000000000",
  value: "3000.000500000000000000",
  buyerFee: "0.000100000000000000",
  sellerFee: "3.000000500000000000",
  takerSide: "buy",
  createdAt: "2026-01-10T12:00:00.000Z",
};

describe("order history views", () => {
  it("gives each member their side, role, order and fee of a trade", () => {
    expect(memberTrade("11", trade)).toEqual({
      tradeId: "7",
      orderId: "taker1",
      symbol: "BTC/USDT",
      side: "buy",
      role: "taker",
      price: "60000.01",
      quantity: "0.05",
      value: "3000.0005",
      fee: "0.0001",
      feeCoin: "BTC",
      createdAt: trade.createdAt,
    });
    expect(memberTrade("22", trade)).toMatchObject({ orderId: "maker1", side: "sell", role: "maker", fee: "3.0000005", feeCoin: "USDT" });
    expect(memberTrade("22", { ...trade, takerSide: "sell" })).toMatchObject({ orderId: "taker1", role: "taker" });
    expect(() => memberTrade("33", trade)).toThrow(/not member 33/);
    expect(feeCoinOf("ETH/BTC", "sell")).toBe("BTC");
  });

  it("writes NUMERIC text canonically, without a JS number", () => {
    expect(canonicalDecimal("0.050000000000000000")).toBe("0.05");
    expect(canonicalDecimal("60000.000000000000000000")).toBe("60000");
    expect(canonicalDecimal("0")).toBe("0");
    expect(canonicalDecimal("0.000000000000000000")).toBe("0");
    expect(canonicalDecimal("123456789012345678901234.123456789012345678")).toBe("123456789012345678901234.123456789012345678");
    expect(canonicalDecimal("-0.10")).toBe("-0.1");
    expect(() => canonicalDecimal("1e5")).toThrow();
  });

  it("turns a day range into instants, the last day included", () => {
    expect(dayRange("2026-01-10", "2026-01-10")).toEqual({ start: new Date("2026-01-10T00:00:00Z"), end: new Date("2026-01-11T00:00:00Z") });
    expect(dayRange(undefined, "2026-12-31")).toEqual({ start: undefined, end: new Date("2027-01-01T00:00:00Z") });
    expect(dayRange()).toEqual({ start: undefined, end: undefined });
  });

  it("names export files with safe characters only", () => {
    const now = Date.UTC(2026, 10, 22, 23, 59);
    expect(exportFilename("trades", {}, now)).toBe("spot-trades-20261122.csv");
    expect(exportFilename("history", { symbol: "BTC/USDT", from: "2026-01-01", to: "2026-01-31" }, now)).toBe(
      "spot-order-history-BTC_USDT-20260101-20260131.csv",
    );
    expect(exportFilename("current", { to: "2026-01-31" }, now)).toBe("spot-open-orders-start-20260131.csv");
    expect(exportFilename("current", { symbol: 'A"B\r\n/../C' }, now)).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(csvTime("2026-01-10T12:00:05.123Z")).toBe("2026-01-10 12:00:05");
  });
});
