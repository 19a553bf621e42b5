import { describe, expect, it } from "vitest";
import {
  coinField,
  dayField,
  FIELD_MESSAGES,
  FIRST_DAY,
  idempotencyKeyField,
  isDayInRange,
  isRealDay,
  LAST_DAY,
  orderIdField,
  positiveDecimalField,
  slashSymbolField,
  symbolField,
  symbolListField,
} from "./fields";

/** The messages of a refused value (text keys), or null when it is accepted. */
function messages(schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? null : result.error!.issues.map((i) => i.message);
}

describe("shared field validators", () => {
  it("reads symbols with either separator", () => {
    expect(symbolField.parse("BTC_USDT")).toBe("BTC_USDT");
    expect(slashSymbolField.parse("BTC_USDT")).toBe("BTC/USDT");
    expect(slashSymbolField.parse("1INCH/USDT")).toBe("1INCH/USDT");
    for (const bad of ["btc_usdt", "BTCUSDT", "BTC-USDT", "BTC_", `${"A".repeat(21)}_USDT`, "BTC_USDT_X"]) {
      expect(messages(symbolField, bad), bad).toEqual([FIELD_MESSAGES.symbol]);
    }
  });

  it("reads a list of up to 50 symbols", () => {
    expect(symbolListField.parse("BTC_USDT,ETH/USDT")).toEqual(["BTC/USDT", "ETH/USDT"]);
    const fifty = Array.from({ length: 50 }, (_, i) => `C${i}_USDT`);
    expect(symbolListField.parse(fifty.join(","))).toHaveLength(50);
    expect(messages(symbolListField, [...fifty, "X_USDT"].join(","))).toEqual([FIELD_MESSAGES.symbols]);
    expect(messages(symbolListField, "BTC_USDT,")).toEqual([FIELD_MESSAGES.symbols]);
  });

  it("reads coins, order ids and idempotency keys", () => {
    expect(coinField.parse("USDT")).toBe("USDT");
    expect(messages(coinField, "usdt")).toEqual([FIELD_MESSAGES.coin]);
    expect(messages(coinField, "BTC/USDT")).toEqual([FIELD_MESSAGES.coin]);
    expect(orderIdField.parse("a")).toBe("a");
    expect(messages(orderIdField, "a b")).toEqual([FIELD_MESSAGES.orderId]);
    expect(messages(orderIdField, "x".repeat(65))).toEqual([FIELD_MESSAGES.orderId]);
    expect(idempotencyKeyField.parse("abcd-12_")).toBe("abcd-12_");
    expect(messages(idempotencyKeyField, "short")).toEqual([FIELD_MESSAGES.idempotencyKey]);
    expect(messages(idempotencyKeyField, "k".repeat(65))).toEqual([FIELD_MESSAGES.idempotencyKey]);
  });

  it("reads real days from 2000 to 2099", () => {
    expect(dayField.parse(FIRST_DAY)).toBe("2000-01-01");
    expect(dayField.parse(LAST_DAY)).toBe("2099-12-31");
    expect(dayField.parse("2024-02-29")).toBe("2024-02-29");
    expect(isRealDay("2026-02-30")).toBe(false);
    expect(isDayInRange("1999-12-31")).toBe(false);
    expect(messages(dayField, "31.01.2026")).toEqual([FIELD_MESSAGES.date]);
    expect(messages(dayField, "2026-02-30")).toEqual([FIELD_MESSAGES.date]);
    expect(messages(dayField, "1999-12-31")).toEqual([FIELD_MESSAGES.dateYears]);
    expect(messages(dayField, "2100-01-01")).toEqual([FIELD_MESSAGES.dateYears]);
  });

  it("reads positive amounts below 10^15 with at most 18 decimals", () => {
    for (const good of ["1", "0.000000000000000001", "999999999999999.5", "12.5"]) expect(positiveDecimalField.parse(good), good).toBe(good);
    expect(messages(positiveDecimalField, "0")).toEqual([FIELD_MESSAGES.positive]);
    expect(messages(positiveDecimalField, "0.000")).toEqual([FIELD_MESSAGES.positive]);
    expect(messages(positiveDecimalField, "-1")).toEqual([FIELD_MESSAGES.decimal]);
    expect(messages(positiveDecimalField, "1e5")).toEqual([FIELD_MESSAGES.decimal]);
    expect(messages(positiveDecimalField, "01")).toEqual([FIELD_MESSAGES.decimal]);
    expect(messages(positiveDecimalField, "1000000000000000")).toEqual([FIELD_MESSAGES.decimalRange]);
    expect(messages(positiveDecimalField, "1.0000000000000000001")).toEqual([FIELD_MESSAGES.decimalRange]);
  });
});
