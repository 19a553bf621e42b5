import { describe, expect, it } from "vitest";
import { billsFilename, tradeLines, transferLine, type BillTrade, type StoredTransfer } from "./bill-lines";

const AT = "2026-01-10T12:00:00.000Z";
const t = (x: Partial<StoredTransfer> & Pick<StoredTransfer, "id" | "debit" | "credit">): StoredTransfer => ({
  phase: "posted",
  asset: "USDT",
  amount: "12.500000000000000000",
  pendingId: null,
  createdAt: AT,
  ...x,
});

describe("transferLine", () => {
  // [what, transfer, side, expected type, amount, account, reference] for member 42.
  const cases: Array<[string, StoredTransfer, "debit" | "credit", string | null, string?, string?, string?]> = [
    ["deposit", t({ id: "deposit:ref-1", debit: "@system/external/USDT", credit: "42/funding/USDT" }), "credit", "deposit", "12.5", "funding", "ref-1"],
    ["transfer out", t({ id: "trans:42:k1", debit: "42/funding/USDT", credit: "42/spot/USDT" }), "debit", "transfer_out", "-12.5", "funding", "trans:42:k1"],
    ["transfer in", t({ id: "trans:42:k1", debit: "42/funding/USDT", credit: "42/spot/USDT" }), "credit", "transfer_in", "12.5", "spot", "trans:42:k1"],
    [
      "withdrawal paid",
      t({ id: "w1.0", phase: "post", debit: "42/funding/USDT", credit: "@system/external/USDT", pendingId: "wd:W1" }),
      "debit",
      "withdrawal",
      "-12.5",
      "funding",
      "W1",
    ],
    [
      "withdrawal fee",
      t({ id: "w1.1", phase: "post", debit: "42/funding/USDT", credit: "@system/fees/USDT", pendingId: "wd:W1" }),
      "debit",
      "withdrawal_fee",
      "-12.5",
      "funding",
      "W1",
    ],
    [
      "trade fee from an order hold",
      t({ id: "s9.1", phase: "post", debit: "42/spot/USDT", credit: "@system/fees/USDT", pendingId: "hold:O1" }),
      "debit",
      "trade_fee",
      "-12.5",
      "spot",
      "O1",
    ],
    [
      "trade paid",
      t({ id: "s9.0", phase: "post", debit: "42/spot/USDT", credit: "7/spot/USDT", pendingId: "hold:O1" }),
      "debit",
      "trade",
      "-12.5",
      "spot",
      "O1",
    ],
    [
      "trade received",
      t({ id: "s9.0", phase: "post", debit: "7/spot/USDT", credit: "42/spot/USDT", pendingId: "hold:O7" }),
      "credit",
      "trade",
      "12.5",
      "spot",
      "O7",
    ],
    ["a fee with no hold", t({ id: "x1", debit: "42/spot/USDT", credit: "@system/fees/USDT" }), "debit", "other", "-12.5", "spot", "x1"],
    ["a plain payment to another member", t({ id: "x2", debit: "42/spot/USDT", credit: "7/spot/USDT" }), "debit", "other", "-12.5", "spot", "x2"],
    ["a hold is no line", t({ id: "wd:W1", phase: "pending", debit: "42/funding/USDT", credit: null }), "debit", null],
    ["a release is no line", t({ id: "r1", phase: "void", debit: "42/funding/USDT", credit: null, pendingId: "wd:W1" }), "debit", null],
    ["another member's side", t({ id: "deposit:r", debit: "@system/external/USDT", credit: "7/funding/USDT" }), "credit", null],
    ["the other side of a deposit", t({ id: "deposit:r", debit: "@system/external/USDT", credit: "42/funding/USDT" }), "debit", null],
    ["member 4 is not member 42", t({ id: "deposit:r", debit: "@system/external/USDT", credit: "4/funding/USDT" }), "credit", null],
  ];
  it.each(cases)("%s", (_what, transfer, side, type, amount, account, reference) => {
    const line = transferLine("42", transfer, side);
    if (type === null) return expect(line).toBeNull();
    expect(line).toMatchObject({ type, amount, account, reference, coin: "USDT", time: AT, id: `${side === "debit" ? "out" : "in"}:${transfer.id}` });
    expect(line!.accountCode).toBe({ funding: "1", spot: "2", contract: "4" }[account!]);
  });
});

describe("tradeLines", () => {
  const trade: BillTrade = {
    id: "77",
    symbol: "BTC/USDT",
    takerOrderId: "T1",
    makerOrderId: "M1",
    buyer: "42",
    seller: "7",
    takerSide: "buy",
    quantity: "0.100000000000000000",
    value: "6000.000000000000000000",
    buyerFee: "0.000200000000000000",
    sellerFee: "6.000000000000000000",
    createdAt: AT,
  };
  it("gives the buyer the base in, the quote out and their fee in the base coin", () => {
    expect(tradeLines("42", trade).map((l) => [l.id, l.coin, l.type, l.amount, l.reference, l.account])).toEqual([
      ["trade:77:buy:base", "BTC", "trade", "0.1", "T1", "spot"],
      ["trade:77:buy:quote", "USDT", "trade", "-6000", "T1", "spot"],
      ["trade:77:buy:fee", "BTC", "trade_fee", "-0.0002", "T1", "spot"],
    ]);
  });
  it("gives the seller the base out, the quote in and their fee in the quote coin, with their own order", () => {
    expect(tradeLines("7", trade).map((l) => [l.coin, l.type, l.amount, l.reference])).toEqual([
      ["BTC", "trade", "-0.1", "M1"],
      ["USDT", "trade", "6000", "M1"],
      ["USDT", "trade_fee", "-6", "M1"],
    ]);
  });
  it("gives no fee line for a fee of zero, and nothing to a member not in the trade", () => {
    expect(tradeLines("42", { ...trade, buyerFee: "0.000" }).map((l) => l.type)).toEqual(["trade", "trade"]);
    expect(tradeLines("9", trade)).toEqual([]);
  });
});

describe("billsFilename", () => {
  it("names the coin and the range with safe characters", () => {
    expect(billsFilename({ coin: "USDT", from: "2026-01-01", to: "2026-01-31" }, 0)).toBe("bills-USDT-20260101-20260131.csv");
    expect(billsFilename({}, Date.UTC(2026, 1, 3))).toBe("bills-20260203.csv");
  });
});
