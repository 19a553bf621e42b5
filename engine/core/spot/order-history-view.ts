/**
 * How a member sees their spot orders and trades: which side of a trade is theirs, whether they
 * were maker or taker, which fee they paid in which coin, and the rows of the CSV export. Pure;
 * amounts stay decimal strings (docs/decisions/010-spot-order-history-api.md).
 */

/** A stored trade (spot_trade), amounts as decimal strings. */
export interface StoredTrade {
  id: string;
  symbol: string;
  takerOrderId: string;
  makerOrderId: string;
  buyer: string;
  seller: string;
  price: string;
  quantity: string;
  value: string;
  buyerFee: string;
  sellerFee: string;
  takerSide: string;
  createdAt: string;
}

export interface MemberTrade {
  tradeId: string;
  orderId: string;
  symbol: string;
  side: "buy" | "sell";
  role: "maker" | "taker";
  price: string;
  quantity: string;
  value: string;
  fee: string;
  feeCoin: string;
  createdAt: string;
}

/** The coins of a symbol such as BTC/USDT. */
export function coinsOf(symbol: string): { base: string; quote: string } {
  const [base = symbol, quote = ""] = symbol.split("/");
  return { base, quote };
}

/** Fees are taken in the coin received: a buyer pays in the base coin, a seller in the quote coin. */
export function feeCoinOf(symbol: string, side: "buy" | "sell"): string {
  const { base, quote } = coinsOf(symbol);
  return side === "buy" ? base : quote;
}

/**
 * A trade from the point of view of one of its two members. Self-trades never happen (the book
 * cancels the taker instead), so a member is the buyer or the seller, never both.
 */
export function memberTrade(memberId: string, t: StoredTrade): MemberTrade {
  const side = t.buyer === memberId ? "buy" : "sell";
  if (side === "sell" && t.seller !== memberId) throw new Error(`trade ${t.id} is not member ${memberId}'s`);
  const role = side === t.takerSide ? "taker" : "maker";
  return {
    tradeId: t.id,
    orderId: role === "taker" ? t.takerOrderId : t.makerOrderId,
    symbol: t.symbol,
    side,
    role,
    price: canonicalDecimal(t.price),
    quantity: canonicalDecimal(t.quantity),
    value: canonicalDecimal(t.value),
    fee: canonicalDecimal(side === "buy" ? t.buyerFee : t.sellerFee),
    feeCoin: feeCoinOf(t.symbol, side),
    createdAt: t.createdAt,
  };
}

/** A NUMERIC as the database writes it (`0.050000000000000000`) in canonical form (`0.05`). */
export function canonicalDecimal(value: string): string {
  let text = String(value).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal: ${text}`);
  if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
  const negative = text.startsWith("-");
  const unsigned = (negative ? text.slice(1) : text).replace(/^0+(?=\d)/, "");
  return negative && /[1-9]/.test(unsigned) ? `-${unsigned}` : unsigned;
}

/** The instants a day range covers: from the start of `from` to the start of the day after `to` (UTC). */
export function dayRange(from?: string, to?: string): { start?: Date; end?: Date } {
  const start = from ? new Date(`${from}T00:00:00Z`) : undefined;
  const end = to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) : undefined;
  return { start, end };
}

/** A time for the export: `2026-01-31 13:05:09` (UTC; the header says so). */
export function csvTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace("T", " ");
}

export type ExportScope = "current" | "history" | "trades";

/** A download name made of safe characters only: `spot-trades-BTC_USDT-20260101-20260131.csv`. */
export function exportFilename(scope: ExportScope | string, filter: { symbol?: string; from?: string; to?: string; account?: string }, now: number): string {
  const account = filter.account === "all" ? "margin-cross" : filter.account === "fixed" ? "margin-isolated" : "spot";
  const names: Record<string, string> = { current: `${account}-open-orders`, history: `${account}-order-history`, trades: `${account}-trades` };
  const what = names[scope] ?? scope;
  const day = (d: string) => d.replace(/-/g, "");
  const parts = [what];
  if (filter.symbol) parts.push(filter.symbol.replace(/[^A-Za-z0-9]+/g, "_"));
  if (filter.from || filter.to) parts.push(`${filter.from ? day(filter.from) : "start"}-${filter.to ? day(filter.to) : "now"}`);
  else parts.push(day(new Date(now).toISOString().slice(0, 10)));
  return `${parts.join("-")}.csv`.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** An order as exported (the fields the order list answers). */
export interface ExportOrder {
  orderId: string;
  symbol: string;
  /** spot, or the margin account it trades from: all (cross), fixed (isolated). */
  account: "spot" | "all" | "fixed";
  side: "buy" | "sell";
  type: string;
  tif: string;
  status: string;
  reason: string | null;
  price: string | null;
  stopProfitPrice: string | null;
  stopLossPrice: string | null;
  triggeredBy: string | null;
  /** The member's own id for the order; null when none was sent. */
  clientOrderId: string | null;
  quantity: string | null;
  money: string | null;
  filled: string;
  filledValue: string;
  avgPrice: string | null;
  fee: string;
  feeCoin: string;
  trades: number;
  createdAt: string;
  updatedAt: string;
}

export const ORDER_CSV_HEADER = [
  "Time (UTC)",
  "Order ID",
  "Symbol",
  "Side",
  "Type",
  "Time in force",
  "Price",
  "Stop-profit price",
  "Stop-loss price",
  "Triggered by",
  "Amount",
  "Total",
  "Filled",
  "Filled value",
  "Average price",
  "Fee",
  "Fee coin",
  "Trades",
  "Status",
  "Reason",
  "Updated (UTC)",
  "Account",
];

export function orderCsvFields(o: ExportOrder): string[] {
  return [
    csvTime(o.createdAt),
    o.orderId,
    o.symbol,
    o.side,
    o.type,
    o.tif,
    o.price ?? "",
    o.stopProfitPrice ?? "",
    o.stopLossPrice ?? "",
    o.triggeredBy ?? "",
    o.quantity ?? "",
    o.money ?? "",
    o.filled,
    o.filledValue,
    o.avgPrice ?? "",
    o.fee,
    o.feeCoin,
    String(o.trades),
    o.status,
    o.reason ?? "",
    csvTime(o.updatedAt),
    o.account,
  ];
}

export const TRADE_CSV_HEADER = ["Time (UTC)", "Trade ID", "Order ID", "Symbol", "Side", "Role", "Price", "Quantity", "Value", "Fee", "Fee coin"];

export function tradeCsvFields(t: MemberTrade): string[] {
  return [csvTime(t.createdAt), t.tradeId, t.orderId, t.symbol, t.side, t.role, t.price, t.quantity, t.value, t.fee, t.feeCoin];
}
