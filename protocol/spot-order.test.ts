import { describe, expect, it } from "vitest";
import { readOrderShape, type OrderFields, type OrderKind, type OrderSide } from "./spot-order";

const first = (kind: OrderKind, side: OrderSide, fields: OrderFields) => {
  const reading = readOrderShape(kind, side, fields);
  return reading.ok ? "ok" : `${reading.issues[0]!.reason} ${reading.issues[0]!.problem} ${reading.issues[0]!.field}`;
};

describe("readOrderShape: which fields each order kind takes", () => {
  it.each([
    ["limit", "buy", { price: "1", num: "2" }, "ok"],
    ["limit", "sell", { num: "2" }, "ORDER_BAD_COMMAND missing price"],
    ["limit", "buy", { price: "1" }, "ORDER_BAD_COMMAND missing num"],
    ["limit", "buy", { price: "1", money: "5" }, "ORDER_BAD_COMMAND missing num"],
    ["limit", "buy", { price: "1", num: "2", money: "5" }, "ORDER_BAD_COMMAND extra money"],
    ["limit", "buy", { price: "1", num: "2", stopLossPrice: "3" }, "STOP_ONLY_FIELDS extra stopLossPrice"],
    ["market", "sell", { num: "2" }, "ok"],
    ["market", "sell", { money: "2" }, "ORDER_BAD_COMMAND missing num"],
    ["market", "buy", { num: "2" }, "ok"],
    ["market", "buy", { money: "5" }, "ok"],
    ["market", "buy", {}, "ORDER_BAD_COMMAND missing money"],
    ["market", "buy", { num: "2", money: "5" }, "ORDER_BAD_COMMAND extra money"],
    ["market", "buy", { price: "1", money: "5" }, "ORDER_BAD_COMMAND extra price"],
    ["market", "sell", { num: "2", triggerMoney: "1" }, "STOP_ONLY_FIELDS extra triggerMoney"],
    ["stop", "sell", { stopLossPrice: "9", triggerMoney: "8", num: "1" }, "ok"],
    ["stop", "sell", { stopProfitPrice: "11", num: "1" }, "ok"],
    ["stop", "buy", { stopLossPrice: "11", money: "100" }, "ok"],
    ["stop", "buy", { stopLossPrice: "11", num: "1" }, "STOP_MARKET_BUY_BY_AMOUNT extra num"],
    ["stop", "buy", { stopLossPrice: "11", triggerMoney: "12", money: "100" }, "ORDER_BAD_COMMAND missing num"],
    ["stop", "sell", { triggerMoney: "8", num: "1" }, "STOP_NEEDS_TRIGGER missing stopProfitPrice"],
    ["stop", "sell", { stopLossPrice: "9", price: "8", num: "1" }, "ORDER_BAD_COMMAND extra price"],
  ] as const)("%s %s %o → %s", (kind, side, fields, expected) => {
    expect(first(kind, side, fields)).toBe(expected);
  });

  it("reads a fitting order as a typed shape", () => {
    expect(readOrderShape("limit", "buy", { price: "1.5", num: "2" })).toEqual({ ok: true, shape: { kind: "limit", price: "1.5", size: { num: "2" } } });
    expect(readOrderShape("market", "buy", { money: "10" })).toEqual({ ok: true, shape: { kind: "market", size: { money: "10" } } });
    expect(readOrderShape("stop", "sell", { stopProfitPrice: "11", stopLossPrice: "9", triggerMoney: "8", num: "1" })).toEqual({
      ok: true,
      shape: { kind: "stop", stopProfitPrice: "11", stopLossPrice: "9", entry: { price: "8", size: { num: "1" } } },
    });
  });

  it("lists every issue, so a form can mark each field", () => {
    const reading = readOrderShape("limit", "buy", {});
    expect(reading.ok ? [] : reading.issues.map((issue) => issue.field)).toEqual(["price", "num"]);
  });
});
