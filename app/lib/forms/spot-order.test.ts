import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readDecimalInput } from "#protocol/decimal-input";
import { checkForm } from "./check-form";
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

/**
 * Issue 28 §1: the browser reads a field exactly as the server does. The browser has two readings:
 * the order form's live one as the member types (`readDecimalInput`, which decides what it marks
 * and what total it shows) and the check that stops a post (`checkForm` with the form's schema);
 * the server parses the post with the schema and sends `toOrderRequest`'s body to the engine.
 */
describe("the browser's reading of a number field is the server's (property)", () => {
  const FIELDS = [
    { name: "price", orderType: "limit", other: { num: "1" }, scale: BTC.priceScale },
    { name: "num", orderType: "limit", other: { price: "1" }, scale: BTC.amountScale },
    { name: "money", orderType: "market", other: {}, scale: BTC.quoteScale },
    { name: "triggerMoney", orderType: "stop", other: { num: "1", stopLoss: "on", stopLossPrice: "1" }, scale: BTC.priceScale },
  ] as const;
  // Digits, both marks, signs, exponents, spaces, other scripts' digits and marks, emoji.
  const piece = fc.constantFrom(..."0123456789".split(""), ".", ",", "-", "−", "+", "e", "E", " ", "\u00a0", "\t", "١", "٫", "１", "。", "💰", "'", "_", "∞");
  const typed = fc.oneof(
    fc.array(piece, { maxLength: 14 }).map((p) => p.join("")),
    fc.stringMatching(/^[0-9]{1,16}([.,][0-9]{0,10})?$/),
    fc.constantFrom(".01", "1,000", "1e-2", "-0.01", "0.0.1", "💰0.01", "1,000.5", "0,01", "1.000,5"),
  );

  /** What the typed text denotes by the grammar of the language, read without the product's reader. */
  function denoted(raw: string, mark: "." | ",", scale: number): string | null {
    const text = raw.trim();
    const grammar = mark === "." ? /^([0-9]+)(?:\.([0-9]*))?$/ : /^([0-9]+)(?:,([0-9]*))?$/;
    const parts = grammar.exec(text);
    if (!parts) return null;
    const whole = BigInt(parts[1]!);
    const fraction = (parts[2] ?? "").replace(/0+$/, "");
    if (fraction.length > scale || whole >= 10n ** 15n || (whole === 0n && fraction === "")) return null;
    return fraction ? `${whole}.${fraction}` : `${whole}`;
  }

  it("for any text in any field, both tiers take the same decimal or both refuse", async () => {
    fc.assert(
      fc.property(typed, fc.constantFrom<"." | ",">(".", ","), fc.constantFrom(...FIELDS), fc.constantFrom("buy", "sell"), (raw, mark, field, side) => {
        if (field.name === "money" && side === "sell") return; // a sell at market sells an amount
        const form = new FormData();
        const fields: Record<string, string> = { side, orderType: field.orderType, idempotencyKey: "key-0123456789", ...field.other, [field.name]: raw };
        for (const [name, value] of Object.entries(fields)) form.set(name, value);
        const schema = spotOrderSchema(BTC, mark);
        const live = readDecimalInput(raw, { scale: field.scale, mark });
        const browser = checkForm(form, schema);
        const server = parseWithZod(form, { schema });
        const expected = denoted(raw, mark, field.scale);
        if (expected === null) {
          expect(live.ok).toBe(false);
          expect(browser[field.name]?.length).toBeGreaterThan(0);
          expect(server.status).toBe("error");
          if (server.status === "error") expect(server.reply().error?.[field.name]).toEqual(browser[field.name]);
        } else {
          expect(live).toEqual({ ok: true, value: expected });
          expect(browser).toEqual({});
          expect(server.status).toBe("success");
          if (server.status === "success") expect(toOrderRequest(server.value, "BTC_USDT").body).toMatchObject({ [field.name]: expected });
        }
      }),
      { numRuns: 3000 },
    );
  });
});
