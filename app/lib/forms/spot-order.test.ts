import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { spotOrderSchema, toOrderRequest } from "./spot-order";

const BTC = { priceScale: 2, amountScale: 6, quoteScale: 8 };

function submit(fields: Record<string, string>, mark: "." | ",") {
  const form = new FormData();
  for (const [name, value] of Object.entries({ side: "buy", orderType: "limit", idempotencyKey: "key-0123456789", ...fields })) form.set(name, value);
  return parseWithZod(form, { schema: spotOrderSchema(BTC, mark) });
}

describe("spot order form (issue 8: an order is exactly what was typed, or it is refused)", () => {
  it.each([
    [{ price: "30000", num: "0,01" }, ".", "num", "validation.number.wrong_mark"],
    [{ price: "30000", num: "-0.01" }, ".", "num", "validation.number.negative"],
    [{ price: "3e4", num: "0.01" }, ".", "price", "validation.number.invalid"],
    [{ price: "30000", num: "0.000000000000000000000000000001" }, ".", "num", "validation.number.decimals"],
    [{ price: "30000", num: "0.01" }, ",", "num", "validation.number.wrong_mark"],
    [{ price: "30000", num: "0" }, ".", "num", "validation.number.zero"],
    [{ orderType: "market", money: "-10" }, ".", "money", "validation.number.negative"],
    [{ price: "1000000000000000", num: "1" }, ".", "price", "validation.number.too_large"],
  ] as const)("%j in a %j language is refused on %s", (fields, mark, field, message) => {
    const result = submit(fields, mark);
    expect(result.status).toBe("error");
    expect(result.reply().error?.[field]).toEqual([message]);
    // The form comes back with what was typed.
    expect(result.reply().initialValue).toMatchObject(fields);
  });

  it.each([
    [{ price: "30000", num: "0.01" }, ".", { price: "30000", num: "0.01" }],
    [{ price: "30000,5", num: "0,01" }, ",", { price: "30000.5", num: "0.01" }],
    [{ price: "030000.50", num: "0.010000" }, ".", { price: "30000.5", num: "0.01" }],
  ] as const)("%j in a %j language places %j", (fields, mark, expected) => {
    const result = submit(fields, mark);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(toOrderRequest(result.value, "BTC_USDT").body).toMatchObject(expected);
  });

  it("a market buy spends exactly the money typed", () => {
    const result = submit({ orderType: "market", money: "10,5" }, ",");
    expect(result.status === "success" && toOrderRequest(result.value, "BTC_USDT")).toMatchObject({ type: "2", body: { money: "10.5", direction: "buy" } });
  });

  it("an empty field is asked for, not refused as a number", () => {
    expect(submit({ price: "", num: "" }, ".").reply().error).toMatchObject({
      price: ["spot.validation.price_required"],
      num: ["spot.validation.num_required"],
    });
  });
});
