import type { Kysely, Selectable } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import type { Side, TimeInForce } from "../core/matching/order-book";
import type { SpotMarket, SpotResult } from "../core/spot/spot-market";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { eachOpenOrder, Interner, minorOf } from "../store/bulk-restore";
import type { Database, MarketSymbolTable } from "../store/schema";
import { SPOT_ROWS } from "./spot-rows";
import { placedAnswer } from "./order-answer";

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
      case "spot.place": {
        if (!("result" in outcome)) return;
        const { market, result, amounts: parsed } = outcome;
        const c = market.config;
        const answer = placedAnswer(command.orderId, result, c.amountScale);
        const closed = result.closed.find((x) => x.orderId === command.orderId);
        const quoteScale = ctx.core.scaleOf(c.quote);
        ctx.batch.rows(SPOT_ROWS).insertOrder({
          order_id: command.orderId,
          member_id: command.memberId,
          symbol: c.symbol,
          side: command.side,
          type: command.orderType,
          tif: command.tif,
          // A waiting stop has no price on the book yet: its triggerMoney is kept as trigger_price.
          price: parsed.price === undefined || result.waiting ? null : fromMinor(parsed.price, c.priceScale),
          quantity: parsed.quantity === undefined ? null : fromMinor(parsed.quantity, c.amountScale),
          money: parsed.money === undefined ? null : fromMinor(parsed.money, quoteScale),
          stop_profit_price: parsed.stopProfitPrice === undefined ? null : fromMinor(parsed.stopProfitPrice, c.priceScale),
          stop_loss_price: parsed.stopLossPrice === undefined ? null : fromMinor(parsed.stopLossPrice, c.priceScale),
          trigger_price: parsed.price === undefined || !result.waiting ? null : fromMinor(parsed.price, c.priceScale),
          filled: answer.filled,
          status: answer.status,
          reason: closed?.reason ?? null,
          created_at: ctx.at,
          updated_at: ctx.at,
        });
        ctx.touched(command.memberId);
        projectResult(ctx, market, result, command.orderId);
        return;
      }
      case "spot.cancel":
        if (!("result" in outcome)) return;
        ctx.touched(command.memberId);
        projectResult(ctx, outcome.market, outcome.result, null);
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
    // Open orders can be millions: read in pages of joined text (bulk-restore.ts); each hold is in the ledger already.
    for (const market of core.markets.values()) {
      const c = market.config;
      const prices = new Interner((text) => minorOf(text, c.priceScale)); // many orders share a price
      await eachOpenOrder(db, c.symbol, (orderId, memberId, side, price, remaining) => {
        core.restoreOrder(c.symbol, { orderId, memberId, side: side as Side, price: prices.get(price), remaining: minorOf(remaining, c.amountScale) });
      });
    }
    // Stop orders watch the last price: restore it, then the stops still waiting (in placement order).
    for (const market of core.markets.values()) {
      const last = await db.selectFrom("spot_trade").select("price").where("symbol", "=", market.config.symbol).orderBy("id", "desc").limit(1).executeTakeFirst();
      if (last) market.restoreLastPrice(minorOf(String(last.price), market.config.priceScale));
    }
    // A fired stop's time priority is when it fired (triggered_seq): it is an open order above.
    const waiting = await db.selectFrom("spot_order").selectAll().where("status", "=", "waiting").orderBy("seq").execute();
    for (const o of waiting) {
      const market = core.markets.get(o.symbol);
      if (!market) continue;
      const c = market.config;
      const minor = (value: string | null, scale: number) => (value === null ? undefined : minorOf(String(value), scale));
      core.restoreStop(o.symbol, {
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
      });
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

/** What one command changed in a market: stops it fired, makers' fills and states, trades, the ledger. */
function projectResult(ctx: ProjectionContext, market: SpotMarket, result: SpotResult, takerOrderId: string | null): void {
  const rows = ctx.batch.rows(SPOT_ROWS);
  const { at } = ctx;
  const c = market.config;
  const quoteScale = ctx.core.scaleOf(c.quote);
  const baseScale = ctx.core.scaleOf(c.base);
  for (const fired of result.triggered) ctx.touched(fired.memberId);
  for (const t of result.trades) {
    ctx.touched(t.buyer);
    ctx.touched(t.seller);
  }
  // Stops this command fired: open now (their fills and ends follow), with the book time they got.
  for (const fired of result.triggered) rows.fireStop(fired.orderId, fired.kind, at);
  for (const t of result.trades) {
    rows.addFill(t.makerOrderId, t.quantity, c.amountScale, at);
    // A fired stop is the taker of its trades (the command's own order is written with the order itself).
    if (t.takerOrderId !== takerOrderId) rows.addFill(t.takerOrderId, t.quantity, c.amountScale, at);
    rows.insertTrade({
      symbol: c.symbol,
      taker_order_id: t.takerOrderId,
      maker_order_id: t.makerOrderId,
      buyer: t.buyer,
      seller: t.seller,
      price: fromMinor(t.price, c.priceScale),
      quantity: fromMinor(t.quantity, c.amountScale),
      value: fromMinor(t.value, quoteScale),
      buyer_fee: fromMinor(t.buyerFee, baseScale),
      seller_fee: fromMinor(t.sellerFee, quoteScale),
      taker_side: t.takerSide,
      created_at: at,
    });
  }
  for (const closed of result.closed) {
    ctx.touched(closed.memberId);
    if (closed.orderId === takerOrderId) continue; // written with the order itself
    rows.setStatus(closed.orderId, closed.status, closed.reason ?? null, c.amountScale, at);
  }
  ctx.transfers(result.transfers);
}
