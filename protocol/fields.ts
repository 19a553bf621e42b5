import * as z from "zod";
import { UNSIGNED_DECIMAL_PATTERN } from "./money";
import { FIRST_DAY, LAST_DAY } from "./wallet-lists";

/**
 * Field validators shared by the engine's endpoint schemas and the web's form schemas, so both
 * tiers accept the same symbols, coins, order ids, idempotency keys, days and amounts. Each field
 * is written once: its pattern or bounds, and a zod schema whose messages are text keys
 * (`validation.*`, listed in FIELD_MESSAGES); a refused value gets one message, the first rule
 * it breaks. The web shows a key through its form-error
 * translation (app/locales); the engine's 400 answer turns it into a sentence in the request's
 * language (engine/locales, see engine/api/register.ts).
 */

/** The text keys of the messages below; each tier that shows one has it in all nine locales. */
export const FIELD_MESSAGES = {
  symbol: "validation.symbol",
  symbols: "validation.symbols",
  coin: "validation.coin",
  orderId: "validation.order_id",
  clientOrderId: "validation.client_order_id",
  idempotencyKey: "validation.idempotency_key",
  date: "validation.date",
  dateYears: "validation.date_years",
  decimal: "validation.decimal",
  positive: "validation.positive",
  decimalRange: "validation.decimal_range",
} as const;

/** One coin code as a pattern source (`BTC`), to build the symbol patterns from. */
export const COIN_SOURCE = "[A-Z0-9]{1,20}";
/** A coin code: 1 to 20 capital letters or digits. */
export const COIN_PATTERN = new RegExp(`^${COIN_SOURCE}$`);
/** A symbol as it travels: BTC_USDT or BTC/USDT. */
export const SYMBOL_SOURCE = `${COIN_SOURCE}[_/]${COIN_SOURCE}`;
export const SYMBOL_PATTERN = new RegExp(`^${SYMBOL_SOURCE}$`);
/** How many symbols one list parameter (BTC_USDT,ETH_USDT) may name. */
export const MAX_SYMBOLS_PER_LIST = 50;
export const SYMBOL_LIST_PATTERN = new RegExp(`^${SYMBOL_SOURCE}(,${SYMBOL_SOURCE}){0,${MAX_SYMBOLS_PER_LIST - 1}}$`);
/** An order's id: 1 to 64 letters, digits, - or _. */
export const ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A member's own id for an order (echoed back, not unique): 1 to 36 letters, digits, - or _ (a UUID fits). */
export const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,36}$/;
/** A client's idempotency key (also a device id): 8 to 64 letters, digits, - or _. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** A calendar day in UTC, YYYY-MM-DD. */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** The days an exchange's history can hold; outside them the database's date range is reached. */
export { FIRST_DAY, LAST_DAY };

/** Whole digits of an amount: below 10^15 (engine/core MAX_WHOLE_DIGITS). */
export const MAX_WHOLE_DIGITS = 15;
/** Decimals of an amount: the NUMERIC(38, 18) columns hold 18. */
export const MAX_DECIMALS = 18;
const DECIMAL_RANGE_PATTERN = new RegExp(`^\\d{1,${MAX_WHOLE_DIGITS}}(\\.\\d{1,${MAX_DECIMALS}})?$`);

/** Whether a YYYY-MM-DD string names a day that exists (not 2026-02-30). */
export function isRealDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Whether a real day lies between FIRST_DAY and LAST_DAY. */
export function isDayInRange(value: string): boolean {
  return value >= FIRST_DAY && value <= LAST_DAY;
}

/** A symbol, BTC_USDT or BTC/USDT, as written (each tier picks the separator it keeps). */
export const symbolField = z.string().regex(SYMBOL_PATTERN, FIELD_MESSAGES.symbol);
/** A symbol answered as BTC/USDT, the engine's spelling. */
export const slashSymbolField = symbolField.transform((s) => s.replace("_", "/"));
/** Up to 50 symbols separated by commas, read as a list of BTC/USDT. */
export const symbolListField = z
  .string()
  .regex(SYMBOL_LIST_PATTERN, FIELD_MESSAGES.symbols)
  .transform((s) => s.split(",").map((x) => x.replace("_", "/")));
/** A coin code such as BTC. */
export const coinField = z.string().regex(COIN_PATTERN, FIELD_MESSAGES.coin);
/** A member's public number as operators name them (eight digits). */
export const memberUidField = z
  .string()
  .trim()
  .regex(/^\d{8}$/, "ops.errors.member");
/** Where a newest-first list's previous page ended (the last row's id): the next page starts below it. */
export const pageCursorField = z.string().regex(/^\d{1,18}$/, "ops.errors.page");
/** An order's id. */
export const orderIdField = z.string().regex(ORDER_ID_PATTERN, FIELD_MESSAGES.orderId);
export const clientOrderIdField = z.string().regex(CLIENT_ORDER_ID_PATTERN, FIELD_MESSAGES.clientOrderId);
/**
 * An idempotency key: a retried call with the same key gets the first call's answer, for 24 hours
 * after it (a retry later than that acts again; decision 017, "the steps after" 2).
 */
export const idempotencyKeyField = z.string().regex(IDEMPOTENCY_KEY_PATTERN, FIELD_MESSAGES.idempotencyKey);
/** A real calendar day in UTC from FIRST_DAY to LAST_DAY. */
export const dayField = z
  .string()
  .regex(DAY_PATTERN, { message: FIELD_MESSAGES.date, abort: true })
  .refine(isRealDay, { message: FIELD_MESSAGES.date, abort: true })
  .refine(isDayInRange, FIELD_MESSAGES.dateYears);
/** An amount above 0 and below 10^15 with at most 18 decimals, as a canonical decimal string. */
export const positiveDecimalField = z
  .string()
  .max(64, { message: FIELD_MESSAGES.decimal, abort: true })
  .regex(UNSIGNED_DECIMAL_PATTERN, { message: FIELD_MESSAGES.decimal, abort: true })
  .refine((v) => /[1-9]/.test(v), { message: FIELD_MESSAGES.positive, abort: true })
  .refine((v) => DECIMAL_RANGE_PATTERN.test(v), FIELD_MESSAGES.decimalRange);
