import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { transferSchema } from "./transfer";

const parse = (fields: Record<string, string>, scale = 8, mark: "." | "," = ".") => {
  const form = new FormData();
  for (const [k, v] of Object.entries({ idempotencyKey: "key-12345678", ...fields })) form.set(k, v);
  return parseWithZod(form, { schema: transferSchema(scale, mark) });
};

describe("the transfer form", () => {
  it("reads the amount exactly as typed in the member's language", () => {
    expect(parse({ from: "funding", to: "spot", coin: "USDT", amount: "12,5" }, 8, ",")).toMatchObject({ status: "success", value: { amount: "12.5" } });
    expect(parse({ from: "spot", to: "contract", coin: "BTC", amount: "0.00000001" }).status).toBe("success");
  });

  it("refuses the same account twice, a missing amount, too many decimals and accounts that cannot hold funds", () => {
    expect(parse({ from: "spot", to: "spot", coin: "USDT", amount: "1" }).reply().error).toEqual({ to: ["wallet.transfer.same_account"] });
    expect(parse({ from: "funding", to: "spot", coin: "USDT", amount: "" }).reply().error).toEqual({ amount: ["wallet.transfer.amount_required"] });
    expect(parse({ from: "funding", to: "spot", coin: "BTC", amount: "0.123" }, 2).reply().error).toEqual({ amount: ["validation.number.decimals"] });
    expect(parse({ from: "merchant", to: "spot", coin: "BTC", amount: "1" }).reply().error).toMatchObject({ from: ["wallet.transfer.account_required"] });
  });
});
