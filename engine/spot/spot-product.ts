import type { Insertable, Kysely, Selectable } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import type { CoreEvent, TransferEvent } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import type { AccountKind } from "../core/ledger/ledger";
import type { Side, TimeInForce } from "../core/matching/order-book";
import type { SpotMarket, SpotSymbolConfig } from "../core/spot/spot-market";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { CANDLE_ROWS } from "../market/candle-rows";
import { eachOpenOrder, Interner, minorOf } from "../store/bulk-restore";
import type { Database, MarketSymbolTable, SpotOrderTable } from "../store/schema";
import { SPOT_ROWS } from "./spot-rows";

/**
 * Spot as a product of the durable layer (decision 017): the table rows of its commands (orders,
 * fills, trades, the market rows operators change) and its part of a restore from the tables
 * (markets, open orders in book order, last prices, waiting stops).
 */
export const spotProduct: Product = {
  name: "spot",
  commands: ["spot.place", "spot.cancel", "market.halt", "market.rules", "market.list"],

  project(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    switch (command.type) {
      case "spot.place":
      case "spot.cancel":
        projectEvents(ctx, outcome.events);
        return;
      // Operator commands: the market's row (read by a start from the tables).
      case "market.halt":
        ctx.batch.rows(SPOT_ROWS).marketHalted(command.symbol, command.halted);
        return;
      case "market.rules":
        ctx.batch.rows(SPOT_ROWS).marketRules(command.symbol, command);
        return;
      case "market.list":
        ctx.batch.rows(SPOT_ROWS).marketListed(command);
        return;
    }
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    for (const s of await spotMarketRows(db)) openMarket(core, s);
    // Open orders can be millions: read in pages of joined text (bulk-restore.ts), each with what
    // its hold still reserves (the balances' held amounts came with the ledger's accounts).
    for (const market of core.markets.values()) {
      const c = market.config;
      const prices = new Interner((text) => minorOf(text, c.priceScale)); // many orders share a price
      const [baseScale, quoteScale] = [core.scaleOf(c.base), core.scaleOf(c.quote)];
      await eachOpenOrder(db, c.symbol, (orderId, memberId, side, price, remaining, held, account) => {
        const hold = minorOf(held, side === "buy" ? quoteScale : baseScale);
        const kind = account === "" ? undefined : (account as AccountKind);
        market.restoreWithHold(orderId, memberId, side as Side, prices.get(price), minorOf(remaining, c.amountScale), hold === 0n ? null : hold, kind);
      });
    }
    // Stop orders watch the last price: restore it, then the stops still waiting (in placement order).
    for (const market of core.markets.values()) {
      const last = await db
        .selectFrom("spot_trade")
        .select("price")
        .where("symbol", "=", market.config.symbol)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      if (last) market.restoreLastPrice(minorOf(String(last.price), market.config.priceScale));
    }
    // A fired stop's time priority is when it fired (triggered_seq): it is an open order above.
    const waiting = await db.selectFrom("spot_order").selectAll().where("status", "=", "waiting").orderBy("seq").execute();
    for (const o of waiting) {
      const market = core.markets.get(o.symbol);
      if (!market) continue;
      const c = market.config;
      const minor = (value: string | null, scale: number) => (value === null ? undefined : minorOf(String(value), scale));
      const held = minorOf(String(o.held ?? 0), core.scaleOf(o.side === "buy" ? c.quote : c.base));
      core.restoreStop(
        o.symbol,
        {
          orderId: o.order_id,
          memberId: o.member_id,
          side: o.side as Side,
          type: o.type as "limit" | "market",
          tif: o.tif as TimeInForce,
          price: minor(o.trigger_price, c.priceScale),
          quantity: minor(o.quantity, c.amountScale),
          money: minor(o.money, core.scaleOf(c.quote)),
          stopProfitPrice: minor(o.stop_profit_price, c.priceScale),
          stopLossPrice: minor(o.stop_loss_price, c.priceScale),
          ...(o.account !== null ? { account: o.account as AccountKind } : {}),
        },
        held,
      );
    }
  },

  /** Markets listed by hand (SQL) while the engine was stopped, which a snapshot does not know. */
  async openConfiguredSince(core: ExchangeCore, db: Kysely<Database>): Promise<boolean> {
    let opened = false;
    for (const s of await spotMarketRows(db)) if (!core.markets.has(s.symbol_name)) opened = openMarket(core, s) !== null || opened;
    return opened;
  },
};

function spotMarketRows(db: Kysely<Database>) {
  return db.selectFrom("market_symbol").selectAll().where("enabled", "=", true).where("contract_type", "=", 0).execute();
}

/** Opens a market from its stored row (skipped when an asset is unknown); the row's halt applies. */
function openMarket(core: ExchangeCore, s: Selectable<MarketSymbolTable>): SpotMarket | null {
  const baseScale = core.assetScales.get(s.coin_symbol);
  const quoteScale = core.assetScales.get(s.quote_symbol);
  if (baseScale === undefined || quoteScale === undefined) return null;
  return core.openMarket(
    {
      symbol: s.symbol_name,
      base: s.coin_symbol,
      quote: s.quote_symbol,
      priceScale: s.price_scale,
      amountScale: s.amount_scale,
      baseAssetScale: baseScale,
      quoteAssetScale: quoteScale,
      tickSize: minorOf(String(s.tick_size), s.price_scale),
      lotSize: minorOf(String(s.lot_size), s.amount_scale),
      minQuantity: minorOf(String(s.min_quantity), s.amount_scale),
      makerFeeBps: BigInt(s.maker_fee_bps),
      takerFeeBps: BigInt(s.taker_fee_bps),
    },
    s.halted,
  );
}

/**
 * The rows of one command's events, folded in the order they happened: the order it placed
 * (written once, as it stands after the command), stops it fired (they join the book in firing
 * order), fills and ends of orders written before, trades and the candles they make, and the
 * ledger's transfers.
 */
export function projectEvents(ctx: ProjectionContext, events: readonly CoreEvent[]): void {
  const rows = ctx.batch.rows(SPOT_ROWS);
  const { at, stamp } = ctx;
  let own: { row: Insertable<SpotOrderTable>; filled: bigint; scale: number } | null = null;
  const transfers: TransferEvent[] = [];
  const isOwn = (orderId: string) => own !== null && own.row.order_id === orderId;
  for (const e of events) {
    switch (e.type) {
      case "order.placed": {
        ctx.touched(e.memberId);
        const c = configOf(ctx, e.symbol);
        const price = (v: bigint | undefined) => (v === undefined ? null : fromMinor(v, c.priceScale));
        own = {
          filled: 0n,
          scale: c.amountScale,
          row: {
            order_id: e.orderId,
            member_id: e.memberId,
            symbol: e.symbol,
            side: e.side,
            type: e.orderType,
            tif: e.tif,
            // A waiting stop has no price on the book yet: its triggerMoney is kept as trigger_price.
            price: e.waiting ? null : price(e.price),
            quantity: e.quantity === undefined ? null : fromMinor(e.quantity, c.amountScale),
            money: e.money === undefined ? null : fromMinor(e.money, ctx.core.scaleOf(c.quote)),
            stop_profit_price: price(e.stopProfitPrice),
            stop_loss_price: price(e.stopLossPrice),
            trigger_price: e.waiting ? price(e.price) : null,
            client_order_id: e.clientOrderId,
            account: e.account ?? null,
            filled: "0",
            status: e.waiting ? "waiting" : "open",
            reason: null,
            created_at: stamp,
            updated_at: stamp,
          },
        };
        rows.insertOrder(own.row);
        break;
      }
      case "order.triggered":
        // Open now (its fills and end follow), with the book time it gets in firing order.
        ctx.touched(e.memberId);
        rows.fireStop(e.orderId, e.kind, stamp);
        break;
      case "trade": {
        ctx.touched(e.buyer);
        ctx.touched(e.seller);
        const c = configOf(ctx, e.symbol);
        for (const orderId of [e.takerOrderId, e.makerOrderId]) {
          if (isOwn(orderId)) own!.filled += e.quantity;
          else rows.addFill(orderId, e.quantity, c.amountScale, stamp);
        }
        const quoteScale = ctx.core.scaleOf(c.quote);
        ctx.batch
          .rows(CANDLE_ROWS)
          .addTrade(
            e.symbol,
            { time: at.getTime(), price: e.price, quantity: e.quantity, value: e.value },
            { priceScale: c.priceScale, amountScale: c.amountScale, quoteScale },
          );
        rows.insertTrade({
          symbol: e.symbol,
          taker_order_id: e.takerOrderId,
          maker_order_id: e.makerOrderId,
          buyer: e.buyer,
          seller: e.seller,
          price: fromMinor(e.price, c.priceScale),
          quantity: fromMinor(e.quantity, c.amountScale),
          value: fromMinor(e.value, quoteScale),
          buyer_fee: fromMinor(e.buyerFee, ctx.core.scaleOf(c.base)),
          seller_fee: fromMinor(e.sellerFee, quoteScale),
          taker_side: e.takerSide,
          created_at: stamp,
        });
        break;
      }
      case "order.closed":
        ctx.touched(e.memberId);
        if (isOwn(e.orderId)) {
          own!.row.status = e.status;
          own!.row.reason = e.reason ?? null;
        } else rows.setStatus(e.orderId, e.status, e.reason ?? null, configOf(ctx, e.symbol).amountScale, stamp);
        break;
      case "transfer":
        transfers.push(e);
        break;
    }
  }
  if (own) own.row.filled = fromMinor(own.filled, own.scale);
  // Each order's hold is a column of its row, as it stands after the command: its opening,
  // payments and release are not ledger rows of their own (the order and its trades are the facts).
  const holds = new Map<string, TransferEvent>();
  for (const t of transfers) {
    const holdId = orderHoldOf(t);
    if (holdId !== null) holds.set(holdId, t);
  }
  // A spot command's events are all of one market: its orders keep their holds.
  const market = holds.size ? ctx.core.markets.get(symbolOf(events)) : undefined;
  for (const [holdId, t] of holds) {
    const orderId = holdId.slice(HOLD_PREFIX.length);
    const held = fromMinor(market?.attachedHold(holdId)?.remaining ?? 0n, ctx.core.scaleOf(t.asset));
    if (isOwn(orderId)) own!.row.held = held;
    else rows.setHeld(orderId, held, stamp);
  }
  ctx.transfers(transfers, (t) => orderHoldOf(t) !== null);
}

const HOLD_PREFIX = "hold:";

/** The market a spot command's events are of (the first event naming one). */
function symbolOf(events: readonly CoreEvent[]): string {
  for (const e of events) if ("symbol" in e) return e.symbol;
  throw new Error("a spot command's hold transfers without an order event");
}

/** The order hold a transfer opens, pays from or releases (`hold:<order id>`), or null. */
function orderHoldOf(t: TransferEvent): string | null {
  if (t.phase === "pending") return t.id.startsWith(HOLD_PREFIX) ? t.id : null;
  if (t.phase === "post" || t.phase === "void") return t.pendingId?.startsWith(HOLD_PREFIX) ? t.pendingId : null;
  return null;
}

function configOf(ctx: ProjectionContext, symbol: string): SpotSymbolConfig {
  const market = ctx.core.markets.get(symbol);
  if (!market) throw new Error(`an event of ${symbol}, a market the core does not hold`);
  return market.config;
}
