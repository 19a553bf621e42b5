import { fromMinor } from "../../protocol/money";
import type { NoticeType } from "../../protocol/endpoints/notices";
import type { Command } from "../core/exchange/commands";
import { eventsOf, type CoreEvent } from "../core/exchange/events";
import { WALLET_NOTICE_COMMANDS, noticeKey, walletNotices } from "../wallet/wallet-notices";

/** One notification for a member, before it is a row: its type, the values its text needs, what it is about. */
export interface NewNotice {
  memberId: string;
  type: NoticeType;
  /** The values of its text (exact decimals as text); rendered in the reader's language when read. */
  params: Record<string, string>;
  /** The order, deposit or withdrawal it is about, or null. */
  orderCode: string | null;
  /** What it is about, when only one may ever be written (`member_notice.dedupe_key`); null: no such key. */
  key: string | null;
}

/** The commands whose events can make a notification: spot orders (fills and stops fire in them), deposits, withdrawals. */
export const NOTICE_COMMANDS = [
  "spot.place",
  "spot.cancel",
  "contract.tick",
  "contract.place",
  "contract.close_all",
  "margin.tick",
  "pledge.tick",
  "subscription.tick",
  "subscription.return_pay",
  ...WALLET_NOTICE_COMMANDS,
] as const satisfies ReadonlyArray<Command["type"]>;

/** What the projection needs besides a command and its events: exact decimals of minor units. */
export interface NoticeScales {
  /** An asset's scale (decimals). */
  asset(asset: string): number;
  /** A market's price scale, or undefined for a market the core does not know. */
  price(symbol: string): number | undefined;
  /** A perpetual contract's price scale, or undefined for a contract the core does not know. */
  contractPrice(symbol: string): number | undefined;
}

/**
 * What an accepted command tells members (decision 031), read from the command and its events
 * alone, so the projection (the rows) and the `refresh` push (the event stream) agree: an order
 * filled (the taker's and each maker's), a stop order triggered, a chain deposit credited, each
 * state a withdrawal reaches (the same notices as the wallet's mails, decision 030), a contract
 * position liquidated or auto-deleveraged (in the price loop's ticks; issue 30), a contract stop,
 * take profit or stop loss fired (decision 048). A fill of
 * part of an order tells nothing until the order is filled; a cancel tells nothing (the member
 * or their order's time in force did it, and the order list says so).
 */
export function coreNotices(command: Command, events: readonly CoreEvent[], scales: NoticeScales): NewNotice[] {
  const out: NewNotice[] = [];
  for (const e of events) {
    if (e.type === "order.closed" && e.status === "filled") {
      const side = sideOf(events, e.orderId) ?? sideOfCommand(command, e.orderId);
      out.push({
        memberId: e.memberId,
        type: "order_filled",
        params: { symbol: e.symbol, ...(side ? { side } : {}) },
        orderCode: e.orderId,
        key: `order:${e.memberId}:${e.orderId}:filled`,
      });
    } else if (e.type === "order.triggered") {
      const scale = scales.price(e.symbol);
      out.push({
        memberId: e.memberId,
        type: "stop_triggered",
        params: { symbol: e.symbol, side: e.side, ...(scale !== undefined ? { price: fromMinor(e.stopPrice, scale) } : {}) },
        orderCode: e.orderId,
        key: `order:${e.memberId}:${e.orderId}:triggered`,
      });
    } else if (e.type === "contract.liquidated" || e.type === "contract.deleveraged") {
      // The projection writes each tick's rows once (its cursor): a liquidation needs no key of its own.
      const scale = scales.contractPrice(e.symbol);
      const price = e.type === "contract.liquidated" ? e.bankruptcy : e.price;
      out.push({
        memberId: e.memberId,
        type: e.type === "contract.liquidated" ? "contract_liquidated" : "contract_deleveraged",
        params: {
          symbol: e.symbol,
          qty: e.qty.toString(),
          ...(e.type === "contract.liquidated" ? { side: e.side } : {}),
          ...(scale !== undefined ? { price: fromMinor(price, scale) } : {}),
        },
        orderCode: e.symbol.replace("/", "_"),
        key: null,
      });
    } else if ((e.type === "margin.level" && e.warned) || e.type === "margin.liquidated") {
      // Each tick's rows are written once (its cursor): a warning is told once per fall below the line.
      out.push({
        memberId: e.memberId,
        type: e.type === "margin.level" ? "margin_warning" : "margin_liquidated",
        params: {
          account: e.scope,
          ...(e.type === "margin.level" && e.level !== null ? { level: fromMinor(e.level, 2) } : {}),
        },
        orderCode: e.scope === "all" ? "all" : e.scope.replace("/", "_"),
        key: null,
      });
    } else if ((e.type === "pledge.ltv" && e.warned) || (e.type === "pledge.liquidated" && e.closed)) {
      // Each tick's rows are written once (its cursor): a margin call is told once per rise to the line.
      out.push({
        memberId: e.memberId,
        type: e.type === "pledge.ltv" ? "loan_margin_call" : "loan_liquidated",
        params: { loan: e.loanId, ...(e.type === "pledge.ltv" && e.ltv !== null ? { ltv: fromMinor(e.ltv * 100n, 4, { trim: true }) } : {}) },
        orderCode: e.loanId,
        key: null,
      });
    } else if (e.type === "subscription.settled") {
      // A subscription is settled once, in one tick: its id keys it.
      const coin = (asset: string, v: bigint) => fromMinor(v, scales.asset(asset), { trim: true });
      out.push({
        memberId: e.memberId,
        type: e.status === "won" ? "subscription_won" : e.status === "allotted" ? "subscription_return_waiting" : "subscription_returned",
        params: {
          project: e.projectId,
          coin: e.asset,
          won: coin(e.asset, e.wonQuantity),
          payCoin: e.quoteAsset,
          paid: coin(e.quoteAsset, e.wonAmount),
          refund: coin(e.quoteAsset, e.refund),
        },
        orderCode: `${e.projectType}_${e.projectId}`,
        key: `subscription:${e.subscriptionId}`,
      });
    } else if (e.type === "subscription.returned") {
      out.push({
        memberId: e.memberId,
        type: "subscription_return_paid",
        params: { amounts: e.amounts.map((a) => `${fromMinor(a.amount, scales.asset(a.asset), { trim: true })} ${a.asset}`).join(", ") },
        orderCode: null,
        key: `return-application:${e.applicationId}`,
      });
    } else if (e.type === "contract.stop_ended" && e.fired !== null && e.firedPrice !== null) {
      // A stop fires once, in one command: its id keys it.
      const scale = scales.contractPrice(e.symbol);
      out.push({
        memberId: e.memberId,
        type: e.status === "triggered" ? "contract_stop_triggered" : "contract_stop_failed",
        params: { symbol: e.symbol, fired: e.fired, ...(scale !== undefined ? { price: fromMinor(e.firedPrice, scale) } : {}) },
        orderCode: e.symbol.replace("/", "_"),
        key: `contract-stop:${e.memberId}:${e.stopId}`,
      });
    }
  }
  for (const { memberId, notice } of walletNotices(command, events, scales.asset)) {
    if (notice.kind === "deposit") {
      out.push({
        memberId,
        type: "deposit_credited",
        params: { coin: notice.coin, amount: notice.amount, network: notice.network },
        orderCode: notice.id,
        key: noticeKey(notice),
      });
    } else {
      out.push({
        memberId,
        type: `withdrawal_${notice.state}`,
        params: { coin: notice.coin, amount: notice.amount, ...(notice.reason !== undefined ? { reason: notice.reason } : {}) },
        orderCode: notice.id,
        key: noticeKey(notice),
      });
    }
  }
  return out;
}

/** An order's side, from its placement or a trade in the same stream. */
function sideOf(events: readonly CoreEvent[], orderId: string): "buy" | "sell" | undefined {
  for (const e of events) {
    if ((e.type === "order.placed" || e.type === "order.triggered") && e.orderId === orderId) return e.side;
  }
  const trade = eventsOf(events, "trade").find((t) => t.takerOrderId === orderId || t.makerOrderId === orderId);
  if (!trade) return undefined;
  // The taker trades on its own side; a maker on the other one.
  const takerSide = trade.takerSide;
  return trade.takerOrderId === orderId ? takerSide : takerSide === "buy" ? "sell" : "buy";
}

function sideOfCommand(command: Command, orderId: string): "buy" | "sell" | undefined {
  return command.type === "spot.place" && command.orderId === orderId ? command.side : undefined;
}
