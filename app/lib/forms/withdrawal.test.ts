import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { readFormError } from "./form-error";
import { addDecimals, sumFits } from "#protocol/decimal";
import { maxWithdrawal, withdrawalSchema, type WithdrawalRules } from "./withdrawal";

const USDT_TRC20: WithdrawalRules = {
  coin: "USDT",
  scale: 6,
  mark: ".",
  minWithdraw: "10",
  fee: "1",
  available: "100.5",
  needsTag: false,
  googleBound: false,
};

const parse = (fields: Record<string, string>, rules: Partial<WithdrawalRules> = {}) => {
  const form = new FormData();
  const all = {
    idempotencyKey: "key-12345678",
    coin: "USDT",
    network: "TRC20",
    address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
    tradePassword: "123456",
    code: "654321",
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) form.set(k, v);
  return parseWithZod(form, { schema: withdrawalSchema({ ...USDT_TRC20, ...rules }) });
};

describe("the withdrawal form", () => {
  it("takes an amount from the minimum up to the available balance less the fee, typed in the member's language", () => {
    expect(parse({ amount: "10" })).toMatchObject({ status: "success", value: { amount: "10" } });
    expect(parse({ amount: "99.5" })).toMatchObject({ status: "success", value: { amount: "99.5" } });
    expect(parse({ amount: "99,5" }, { mark: "," })).toMatchObject({ status: "success", value: { amount: "99.5" } });
  });

  it("refuses below the minimum, above what is available with the fee, too many decimals and a missing amount", () => {
    const below = parse({ amount: "9.999999" }).reply().error!.amount![0]!;
    expect(readFormError(below)).toEqual({ key: "wallet.withdraw.below_minimum", values: { min: "10", coin: "USDT" } });
    expect(parse({ amount: "99.500001" }).reply().error).toEqual({ amount: ["wallet.withdraw.above_available"] });
    expect(parse({ amount: "1.0000001" }).reply().error).toEqual({ amount: ["validation.number.decimals"] });
    expect(parse({ amount: "-5" }).reply().error).toMatchObject({ amount: ["validation.number.negative"] });
    expect(parse({ amount: "" }).reply().error).toEqual({ amount: ["wallet.withdraw.amount_required"] });
  });

  it("needs the address, a six-digit transaction password and code, and the Google code when bound", () => {
    expect(parse({ amount: "10", address: " " }).reply().error).toEqual({ address: ["wallet.withdraw.address_required"] });
    expect(parse({ amount: "10", tradePassword: "12345" }).reply().error).toEqual({ tradePassword: ["validation.trade_password"] });
    expect(parse({ amount: "10", code: "12a456" }).reply().error).toEqual({ code: ["validation.code"] });
    expect(parse({ amount: "10" }, { googleBound: true }).reply().error).toEqual({ googleCode: ["validation.code"] });
    expect(parse({ amount: "10", googleCode: "111222" }, { googleBound: true }).status).toBe("success");
  });

  it("takes a destination tag of digits only", () => {
    expect(parse({ amount: "10", memo: "12345" }, { needsTag: true }).status).toBe("success");
    expect(parse({ amount: "10", memo: "12ab" }, { needsTag: true }).reply().error).toEqual({ memo: ["wallet.withdraw.tag_invalid"] });
  });

  it("adds and bounds amounts exactly", () => {
    expect(addDecimals("0.1", "0.2")).toBe("0.3");
    expect(sumFits("99.5", "1", "100.5")).toBe(true);
    expect(sumFits("99.50000001", "1", "100.5")).toBe(false);
    expect(maxWithdrawal("100.5", "1")).toBe("99.5");
    expect(maxWithdrawal("0.5", "1")).toBe("0");
    expect(maxWithdrawal("0.0003", "0.0002")).toBe("0.0001");
  });
});
