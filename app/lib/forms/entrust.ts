import * as z from "zod";
import { dayField, orderIdField, symbolField } from "#protocol/fields";

/**
 * The spot orders page's address (`/account/entrust/spot?tab=…&symbol=…&side=…&from=…&to=…&page=…`):
 * tabs and paging are plain links and the filter a GET form, so all of it works without
 * JavaScript. One schema reads it on the page, for the export and for the links.
 */
export const ENTRUST_TABS = ["open", "history", "trades"] as const;
/** The margin pages add the account's records (borrows, repayments, interest, transfers). */
export const MARGIN_ENTRUST_TABS = [...ENTRUST_TABS, "records"] as const;
export type EntrustTab = (typeof MARGIN_ENTRUST_TABS)[number];

/**
 * The account an orders page shows (issue 31): spot orders, or margin orders of the cross account
 * (`all`, `/account/entrust/margin-all`) or the isolated ones (`fixed`, `margin-fixed`).
 */
export type OrdersAccount = "spot" | "all" | "fixed";
export const ORDERS_PAGE: Record<OrdersAccount, { base: string; title: string; tabs: readonly EntrustTab[] }> = {
  spot: { base: "/account/entrust/spot", title: "entrust.spot_title", tabs: ENTRUST_TABS },
  all: { base: "/account/entrust/margin-all", title: "entrust.margin_all_title", tabs: MARGIN_ENTRUST_TABS },
  fixed: { base: "/account/entrust/margin-fixed", title: "entrust.margin_fixed_title", tabs: MARGIN_ENTRUST_TABS },
};

/** The orders page of an order's account (the engine's `account` of an order). */
export function ordersPageOf(account: OrdersAccount): string {
  return ORDERS_PAGE[account].base;
}
export const ENTRUST_PAGE_SIZE = 20;

/** The engine's name of what a tab shows (orders `current`/`history`, or `trades`). */
export const SCOPE_OF_TAB = { open: "current", history: "history", trades: "trades" } as const;

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);
// The engine keeps history from 2000 to 2099: the same day field as its own filter.
const day = dayField;

export const entrustFilterSchema = z
  .object({
    // An unknown tab or page falls back to the first: a stale link should still show something.
    tab: z.enum(MARGIN_ENTRUST_TABS).catch("open"),
    page: z.coerce.number().int().min(1).max(100_000).catch(1),
    // BTC_USDT in addresses (no %2F); BTC/USDT is read too.
    symbol: z.preprocess(blank, symbolField.transform((v) => v.replace("/", "_")).optional()),
    side: z.preprocess(blank, z.enum(["buy", "sell"], { message: "validation.entrust_side" }).optional()),
    from: z.preprocess(blank, day.optional()),
    to: z.preprocess(blank, day.optional()),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["to"], message: "validation.date_range" });
export type EntrustFilter = z.output<typeof entrustFilterSchema>;

export type FilterErrors = Partial<Record<"symbol" | "side" | "from" | "to", string[]>>;

/** What the filter form shows: the values as they were sent (also when one was refused). */
export type FilterValues = Partial<Record<"symbol" | "side" | "from" | "to", string>>;

/** Reads the page's address; a bad filter value comes back as an error per field (text keys). */
export function parseEntrustQuery(
  params: URLSearchParams,
  tabs: readonly EntrustTab[] = ENTRUST_TABS,
): { filter: EntrustFilter; errors: FilterErrors | null; values: FilterValues } {
  const raw = Object.fromEntries(params);
  // A tab the page does not have is its first one, like an unknown one.
  if (!tabs.includes(raw.tab as EntrustTab)) delete raw.tab;
  const values: FilterValues = {};
  for (const key of ["symbol", "side", "from", "to"] as const) if (raw[key]) values[key] = raw[key].slice(0, 40);
  const parsed = entrustFilterSchema.safeParse(raw);
  if (parsed.success) return { filter: parsed.data, errors: null, values: { ...values, symbol: parsed.data.symbol } };
  const errors: FilterErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof FilterErrors;
    (errors[field] ??= []).push(issue.message);
  }
  return { filter: { tab: tabs.find((t) => t === raw.tab) ?? "open", page: 1 }, errors, values };
}

/** Whether the filter narrows anything (the empty state says so). */
export function isFiltered(filter: EntrustFilter): boolean {
  return Boolean(filter.symbol || filter.side || filter.from || filter.to);
}

/** A query string of the page with some values changed; empty values and page 1 are left out. */
export function entrustSearch(filter: Partial<EntrustFilter>, changes: Partial<EntrustFilter> = {}): string {
  const next = { ...filter, ...changes };
  const params = new URLSearchParams();
  for (const key of ["tab", "symbol", "side", "from", "to", "page"] as const) {
    const value = next[key];
    if (value === undefined || value === "" || (key === "page" && value === 1)) continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The engine's filter fields of a page filter (symbols travel as BTC_USDT). */
export function engineFilter(
  filter: EntrustFilter,
  account: OrdersAccount = "spot",
): { symbol?: string; side?: "buy" | "sell"; from?: string; to?: string; account: OrdersAccount } {
  return {
    symbol: filter.symbol,
    side: filter.side,
    from: filter.from,
    to: filter.to,
    account,
  };
}

export const cancelOrderSchema = z.object({
  intent: z.literal("cancel"),
  orderId: orderIdField,
});
