import { ACCOUNT_CODES, type OpenAccountName } from "../../../protocol/accounts";
import type { BillTypeName } from "../../../protocol/endpoints/bills";
import { accountOf } from "../ledger/ledger";
import { canonicalDecimal, coinsOf, csvTime } from "../spot/order-history-view";

/**
 * A member's bills (docs/decisions/026-bills.md): every change of one of their posted balances
 * as a statement line. Pure; amounts stay decimal strings.
 *
 * Two sources give the lines. Deposits, withdrawals and transfers between the member's own
 * accounts are ledger transfers (`transferLine`, one line per side that is the member's). Trades
 * are `spot_trade` rows (`tradeLines`), because the ledger pays a seller's fee out of the buyer's
 * hold: read from the ledger, the buyer would be shown the seller's fee. Holds (`pending`) and
 * their release (`void`) only move money between available and frozen and are not lines.
 */

export type BillType = BillTypeName;

/** The accounts a bill line can be on (protocol/accounts.ts). */
export type BillAccount = OpenAccountName;

export interface BillLine {
  /** Stable: `<in|out>:<transfer id>` for a transfer, `trade:<trade id>:<buy|sell>:<base|quote|fee>` for a trade (a trade's two members get lines of their own). */
  id: string;
  time: string;
  account: BillAccount;
  accountCode: (typeof ACCOUNT_CODES)[BillAccount];
  coin: string;
  type: BillType;
  /** Signed: what the line added to the balance (negative: taken). */
  amount: string;
  /** Order id (trades), withdrawal id, deposit reference, transfer id. */
  reference: string;
}

/** A `ledger_transfer` row, its amount a positive decimal string. */
export interface StoredTransfer {
  id: string;
  phase: string;
  debit: string;
  credit: string | null;
  asset: string;
  amount: string;
  pendingId: string | null;
  createdAt: string;
}

/** A `spot_trade` row as the bills read it. */
export interface BillTrade {
  id: string;
  symbol: string;
  takerOrderId: string;
  makerOrderId: string;
  buyer: string;
  seller: string;
  takerSide: string;
  quantity: string;
  value: string;
  buyerFee: string;
  sellerFee: string;
  createdAt: string;
}

const SYSTEM = "@system";
const WITHDRAWAL_HOLD = "wd:";
const ORDER_HOLD = "hold:";
const DEPOSIT_ID = "deposit:";

function negate(amount: string): string {
  const text = canonicalDecimal(amount);
  return text === "0" ? text : text.startsWith("-") ? text.slice(1) : `-${text}`;
}

function accountName(kind: string): BillAccount | undefined {
  return kind === "funding" || kind === "spot" || kind === "contract" ? kind : undefined;
}

const after = (prefix: string, text: string) => (text.startsWith(prefix) ? text.slice(prefix.length) : text);

/**
 * The line a ledger transfer makes on the member's side `side` (the debit or the credit
 * account), or null when that side is not one of the member's accounts or the transfer does not
 * change a posted balance (a hold or its release).
 */
export function transferLine(memberId: string, t: StoredTransfer, side: "debit" | "credit"): BillLine | null {
  if (t.phase !== "posted" && t.phase !== "post") return null;
  if (t.credit === null) return null;
  const mine = accountOf(side === "debit" ? t.debit : t.credit);
  const other = accountOf(side === "debit" ? t.credit : t.debit);
  if (mine.owner !== memberId) return null;
  const account = accountName(mine.kind);
  if (!account) return null;
  const hold = t.pendingId ?? "";
  let type: BillType = "other";
  let reference = t.id;
  if (other.owner === memberId) {
    type = side === "debit" ? "transfer_out" : "transfer_in";
  } else if (other.owner === SYSTEM && other.kind === "external") {
    type = side === "debit" ? "withdrawal" : "deposit";
    reference = side === "debit" ? after(WITHDRAWAL_HOLD, hold || t.id) : after(DEPOSIT_ID, t.id);
  } else if (other.owner === SYSTEM && other.kind === "fees" && side === "debit") {
    if (hold.startsWith(WITHDRAWAL_HOLD)) type = "withdrawal_fee";
    else if (hold.startsWith(ORDER_HOLD)) type = "trade_fee";
    if (hold) reference = after(type === "withdrawal_fee" ? WITHDRAWAL_HOLD : ORDER_HOLD, hold);
  } else if (other.owner !== SYSTEM && hold.startsWith(ORDER_HOLD)) {
    // Paid from the member's order hold, or received from another member's: a trade's settlement
    // (the service reads trades from spot_trade instead; see the file's comment).
    type = "trade";
    reference = after(ORDER_HOLD, hold);
  }
  return {
    id: `${side === "debit" ? "out" : "in"}:${t.id}`,
    time: t.createdAt,
    account,
    accountCode: ACCOUNT_CODES[account],
    coin: t.asset,
    type,
    amount: side === "debit" ? negate(t.amount) : canonicalDecimal(t.amount),
    reference,
  };
}

/**
 * The lines one trade makes for the member (the buyer or the seller, never both): what they
 * received and what they paid, both `trade`, and their fee as `trade_fee` when there is one
 * (a buyer pays it in the base coin, a seller in the quote coin). All on the spot account.
 */
export function tradeLines(memberId: string, t: BillTrade): BillLine[] {
  const buys = t.buyer === memberId;
  if (!buys && t.seller !== memberId) return [];
  const { base, quote } = coinsOf(t.symbol);
  const takerBuys = t.takerSide === "buy";
  const orderId = buys === takerBuys ? t.takerOrderId : t.makerOrderId;
  const line = (part: "base" | "quote" | "fee", coin: string, type: BillType, amount: string): BillLine => ({
    id: `trade:${t.id}:${buys ? "buy" : "sell"}:${part}`,
    time: t.createdAt,
    account: "spot",
    accountCode: ACCOUNT_CODES.spot,
    coin,
    type,
    amount,
    reference: orderId,
  });
  const fee = canonicalDecimal(buys ? t.buyerFee : t.sellerFee);
  const lines = [
    line("base", base, "trade", buys ? canonicalDecimal(t.quantity) : negate(t.quantity)),
    line("quote", quote, "trade", buys ? negate(t.value) : canonicalDecimal(t.value)),
  ];
  if (fee !== "0") lines.push(line("fee", buys ? base : quote, "trade_fee", negate(fee)));
  return lines;
}

/** The header of the CSV export, as text keys of engine/locales (group `bills`). */
export const BILL_CSV_COLUMNS = ["csv_time", "csv_account", "csv_coin", "csv_type", "csv_amount", "csv_reference", "csv_id"] as const;

export function billCsvFields(line: BillLine): string[] {
  return [csvTime(line.time), line.account, line.coin, line.type, line.amount, line.reference, line.id];
}

/** A download name of safe characters: `bills-USDT-20260101-20260131.csv`. */
export function billsFilename(filter: { coin?: string; from?: string; to?: string }, now: number): string {
  const day = (d: string) => d.replace(/-/g, "");
  const parts = ["bills"];
  if (filter.coin) parts.push(filter.coin);
  if (filter.from || filter.to) parts.push(`${filter.from ? day(filter.from) : "start"}-${filter.to ? day(filter.to) : "now"}`);
  else parts.push(day(new Date(now).toISOString().slice(0, 10)));
  return `${parts.join("-")}.csv`.replace(/[^A-Za-z0-9._-]/g, "_");
}
