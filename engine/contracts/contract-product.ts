import { sql, type Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import { contractValue, RATE_SCALE } from "../core/contracts/contract-math";
import type { ContractMarketState } from "../core/contracts/contract-market";
import type { Perpetual, PerpetualState } from "../core/contracts/perpetual";
import type { Command } from "../core/exchange/commands";
import type { TimeInForce } from "../core/matching/order-book";
import { eventsOf, membersTouched, type CoreEvent } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { accountOf } from "../core/ledger/ledger";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { CONTRACT_CANDLE_ROWS } from "../market/candle-rows";
import { minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";
import { candleScalesOf, configOfRow, contractRows, type ContractRow } from "./contract-config";
import { CONTRACT_ROWS, contractTradeId, type ContractRows } from "./contract-rows";

/**
 * Perpetual contracts as a product of the durable layer (decisions 017 and 046): the table rows
 * of the contract commands, each order, position and contract's price state written as the core
 * holds it right after the command, and the restore of every contract from those tables when a
 * start has no usable snapshot.
 */
export const contractProduct: Product = {
  name: "contracts",
  commands: [
    "contract.place",
    "contract.stop",
    "contract.tpsl",
    "contract.cancel",
    "contract.leverage",
    "contract.margin_mode",
    "contract.margin",
    "contract.close_all",
    "contract.tick",
    "contract.rules",
    "contract.insurance",
  ],

  project(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    const rows = ctx.batch.rows(CONTRACT_ROWS);
    if (command.type === "contract.rules") rows.rules(command.symbol, command);
    projectEvents(ctx, rows, outcome.events);
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    for (const row of await contractRows(db)) await restoreContract(core, db, row);
  },

  /** Contracts added by hand (SQL) while the engine was stopped, which a snapshot does not know. */
  async openConfiguredSince(core: ExchangeCore, db: Kysely<Database>): Promise<boolean> {
    let opened = false;
    for (const row of await contractRows(db)) if (!core.contracts.has(row.symbol) && openContract(core, row)) opened = true;
    return opened;
  },
};

function openContract(core: ExchangeCore, row: ContractRow): Perpetual | null {
  const settleScale = core.assetScales.get(row.settle_asset);
  if (settleScale === undefined) return null;
  const perpetual = core.openContract(configOfRow(row, settleScale));
  perpetual.halted = row.halted;
  return perpetual;
}

/** One contract from its rows: configuration, price state, leverages, positions, open orders in book order. */
async function restoreContract(core: ExchangeCore, db: Kysely<Database>, row: ContractRow): Promise<void> {
  const perpetual = openContract(core, row);
  if (!perpetual) return;
  const { spec } = perpetual.config;
  const price = (v: string | null) => (v === null ? null : minorOf(String(v), spec.priceScale).toString());
  const money = (v: string) => minorOf(String(v), spec.settleScale).toString();
  const [leverages, positions, orders, stops, lastTrade] = await Promise.all([
    db.selectFrom("contract_leverage").selectAll().where("symbol", "=", row.symbol).execute(),
    db.selectFrom("contract_position").selectAll().where("symbol", "=", row.symbol).execute(),
    db.selectFrom("contract_order").selectAll().where("symbol", "=", row.symbol).where("status", "=", "open").orderBy("seq").execute(),
    db.selectFrom("contract_stop").selectAll().where("symbol", "=", row.symbol).where("status", "=", "waiting").orderBy("seq").execute(),
    // The last trade: the latest command's, its last in the command (ids are `seq.n`).
    db
      .selectFrom("contract_trade")
      .select("price")
      .where("symbol", "=", row.symbol)
      .orderBy("seq", "desc")
      .orderBy(sql`split_part(id, '.', 2)::int`, "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const market: ContractMarketState = {
    symbol: row.symbol,
    deficit: money(row.deficit),
    last: lastTrade ? price(lastTrade.price) : null,
    cross: leverages.filter((l) => l.margin_mode === "cross").map((l) => l.member_id),
    stops: stops.map((s) => ({
      id: s.stop_id,
      memberId: s.member_id,
      side: s.side as "buy" | "sell",
      action: s.action as "open" | "close",
      type: s.type as "limit" | "market",
      price: price(s.price),
      qty: s.quantity === null ? null : String(s.quantity),
      tif: s.tif as TimeInForce,
      triggerBy: s.trigger_by,
      profitPrice: price(s.profit_price),
      lossPrice: price(s.loss_price),
    })),
    leverages: leverages.filter((l) => l.leverage !== perpetual.config.defaultLeverage).map((l) => [l.member_id, l.leverage]),
    positions: positions.map((p) => ({
      memberId: p.member_id,
      side: p.side as "long" | "short",
      qty: String(p.qty),
      cost: money(p.cost),
      margin: money(p.margin),
      leverage: p.leverage,
    })),
    orders: orders.map((o) => ({
      id: o.order_id,
      memberId: o.member_id,
      side: o.side as "buy" | "sell",
      action: o.action as "open" | "close",
      price: price(o.price ?? o.hold_price)!,
      holdPrice: price(o.hold_price)!,
      leverage: o.leverage,
      remaining: (BigInt(o.quantity) - BigInt(o.filled)).toString(),
      marginLeft: money(o.margin_left),
      feeLeft: money(o.fee_left),
    })),
  };
  const state: PerpetualState = {
    symbol: row.symbol,
    market,
    tracker:
      row.next_funding_at === null
        ? null
        : {
            basis: price(row.basis ?? "0")!,
            premiumSum: String(row.premium_sum ?? "0"),
            premiumCount: row.premium_count ?? 0,
            nextFundingAt: Number(row.next_funding_at),
          },
    mark: price(row.mark_price),
    index: price(row.index_price),
    halted: row.halted,
  };
  perpetual.restore(state);
}

/** The rows of one command's events (decision 046). */
function projectEvents(ctx: ProjectionContext, rows: ContractRows, events: readonly CoreEvent[]): void {
  const { core, stamp, seq } = ctx;
  const time = ctx.at.getTime();
  const candles = () => ctx.batch.rows(CONTRACT_CANDLE_ROWS);
  for (const member of membersTouched(events, (id) => accountOf(id).owner)) ctx.touched(member);
  ctx.transfers(eventsOf(events, "transfer"));
  /** Orders whose row changes, and how those that ended ended. */
  const orders = new Map<string, { symbol: string; ended?: { reason: string; remaining: bigint } }>();
  const positions = new Map<string, { symbol: string; memberId: string }>();
  const symbols = new Set<string>();
  let trades = 0;
  for (const e of events) {
    switch (e.type) {
      case "contract.placed": {
        const { spec } = perpetualOf(core, e.symbol).config;
        const live = perpetualOf(core, e.symbol).market.openOrder(e.orderId);
        rows.insertOrder({
          order_id: e.orderId,
          seq: String(seq),
          member_id: e.memberId,
          symbol: e.symbol,
          side: e.side,
          action: e.action,
          type: e.orderType,
          tif: e.tif,
          price: e.price === null ? null : fromMinor(e.price, spec.priceScale),
          hold_price: fromMinor(live?.holdPrice ?? e.price ?? 0n, spec.priceScale),
          quantity: e.quantity.toString(),
          leverage: e.leverage,
          status: "open",
          reason: null,
          created_at: stamp,
          updated_at: stamp,
        });
        orders.set(e.orderId, { symbol: e.symbol });
        break;
      }
      case "contract.trade": {
        const { spec } = perpetualOf(core, e.symbol).config;
        candles().add(
          { symbol: e.symbol, source: "last" },
          { time, price: e.price, quantity: e.qty, value: contractValue(spec, e.qty, e.price) },
          candleScalesOf(spec),
        );
        const id = contractTradeId(seq, ++trades);
        const priceText = fromMinor(e.price, spec.priceScale);
        const money = (v: bigint) => fromMinor(v, spec.settleScale);
        const makerSide = e.takerSide === "buy" ? "sell" : "buy";
        rows.trade({ id, seq: String(seq), symbol: e.symbol, price: priceText, qty: e.qty.toString(), taker_side: e.takerSide, created_at: stamp }, [
          fill(id, e.takerOrderId, e.symbol, e.takerSide, "taker", e.taker, priceText, e.qty, money, stamp),
          fill(id, e.makerOrderId, e.symbol, makerSide, "maker", e.maker, priceText, e.qty, money, stamp),
        ]);
        for (const orderId of [e.takerOrderId, e.makerOrderId]) if (!orders.has(orderId)) orders.set(orderId, { symbol: e.symbol });
        break;
      }
      case "contract.stop_placed": {
        const { spec } = perpetualOf(core, e.symbol).config;
        const at = (v: bigint | null) => (v === null ? null : fromMinor(v, spec.priceScale));
        rows.insertStop({
          stop_id: e.stopId,
          seq: String(seq),
          member_id: e.memberId,
          symbol: e.symbol,
          side: e.side,
          action: e.action,
          type: e.orderType,
          tif: e.tif,
          price: at(e.price),
          quantity: e.qty === null ? null : e.qty.toString(),
          trigger_by: e.triggerBy,
          profit_price: at(e.profitPrice),
          loss_price: at(e.lossPrice),
          status: "waiting",
          reason: null,
          fired_price: null,
          created_at: stamp,
          updated_at: stamp,
        });
        break;
      }
      case "contract.stop_ended": {
        const { spec } = perpetualOf(core, e.symbol).config;
        rows.stopState({
          stop_id: e.stopId,
          status: e.status,
          reason: e.reason,
          fired_price: e.firedPrice === null ? null : fromMinor(e.firedPrice, spec.priceScale),
          updated_at: stamp,
        });
        break;
      }
      case "contract.order_ended":
        orders.set(e.orderId, { symbol: e.symbol, ended: { reason: e.reason, remaining: e.remaining } });
        break;
      case "contract.position":
        positions.set(`${e.memberId}|${e.symbol}`, { symbol: e.symbol, memberId: e.memberId });
        break;
      case "contract.leverage":
      case "contract.margin_mode": {
        const { market } = perpetualOf(core, e.symbol);
        rows.leverage(e.memberId, e.symbol, market.leverageOf(e.memberId), market.marginModeOf(e.memberId));
        break;
      }
      case "contract.funding": {
        const { spec } = perpetualOf(core, e.symbol).config;
        rows.funding({
          seq: String(seq),
          symbol: e.symbol,
          member_id: e.memberId,
          rate: fromMinor(e.rate, RATE_SCALE),
          mark: fromMinor(e.mark, spec.priceScale),
          amount: fromMinor(e.amount, spec.settleScale),
          created_at: stamp,
        });
        positions.set(`${e.memberId}|${e.symbol}`, { symbol: e.symbol, memberId: e.memberId });
        break;
      }
      case "contract.liquidated": {
        const { spec } = perpetualOf(core, e.symbol).config;
        rows.liquidation({
          seq: String(seq),
          kind: "liquidated",
          symbol: e.symbol,
          member_id: e.memberId,
          side: e.side,
          qty: e.qty.toString(),
          price: fromMinor(e.bankruptcy, spec.priceScale),
          mark: fromMinor(e.mark, spec.priceScale),
          filled: e.filled.toString(),
          taken_over: e.takenOver.toString(),
          to_insurance: fromMinor(e.toInsurance, spec.settleScale),
          created_at: stamp,
        });
        positions.set(`${INSURANCE}|${e.symbol}`, { symbol: e.symbol, memberId: INSURANCE });
        positions.set(`${e.memberId}|${e.symbol}`, { symbol: e.symbol, memberId: e.memberId });
        break;
      }
      case "contract.deleveraged": {
        const { spec } = perpetualOf(core, e.symbol).config;
        rows.liquidation({
          seq: String(seq),
          kind: "deleveraged",
          symbol: e.symbol,
          member_id: e.memberId,
          side: null,
          qty: e.qty.toString(),
          price: fromMinor(e.price, spec.priceScale),
          mark: null,
          filled: null,
          taken_over: null,
          to_insurance: null,
          created_at: stamp,
        });
        positions.set(`${INSURANCE}|${e.symbol}`, { symbol: e.symbol, memberId: INSURANCE });
        positions.set(`${e.memberId}|${e.symbol}`, { symbol: e.symbol, memberId: e.memberId });
        break;
      }
      case "contract.mark":
        if (e.mark !== null) {
          const { spec } = perpetualOf(core, e.symbol).config;
          candles().add({ symbol: e.symbol, source: "mark" }, { time, price: e.mark, quantity: 0n, value: 0n }, candleScalesOf(spec));
        }
        symbols.add(e.symbol);
        break;
      case "contract.deficit":
      case "contract.deficit_covered":
        symbols.add(e.symbol);
        break;
    }
  }
  // As the core holds them now.
  for (const [orderId, o] of orders) {
    const { spec } = perpetualOf(core, o.symbol).config;
    const live = perpetualOf(core, o.symbol).market.openOrder(orderId);
    const money = (v: bigint) => fromMinor(v, spec.settleScale);
    if (live)
      rows.orderState({
        order_id: orderId,
        remaining: live.remaining.toString(),
        margin_left: money(live.marginLeft),
        fee_left: money(live.feeLeft),
        status: "open",
        reason: null,
        updated_at: stamp,
      });
    else if (o.ended)
      rows.orderState({
        order_id: orderId,
        remaining: o.ended.remaining.toString(),
        margin_left: "0",
        fee_left: "0",
        status: o.ended.remaining === 0n ? "filled" : "cancelled",
        reason: o.ended.reason === "filled" ? null : o.ended.reason,
        updated_at: stamp,
      });
  }
  for (const { symbol, memberId } of positions.values()) {
    const perpetual = perpetualOf(core, symbol);
    const p = perpetual.market.position(memberId);
    const money = (v: bigint) => fromMinor(v, perpetual.config.spec.settleScale);
    if (!p) rows.positionGone(memberId, symbol);
    else
      rows.position({
        symbol,
        member_id: memberId,
        side: p.side,
        qty: p.qty.toString(),
        cost: money(p.cost),
        margin: money(p.margin),
        leverage: p.leverage,
        updated_at: stamp,
      });
  }
  for (const symbol of symbols) {
    const perpetual = perpetualOf(core, symbol);
    const s = perpetual.snapshot();
    const { spec } = perpetual.config;
    rows.symbolState({
      symbol,
      index_price: s.index === null ? null : fromMinor(BigInt(s.index), spec.priceScale),
      mark_price: s.mark === null ? null : fromMinor(BigInt(s.mark), spec.priceScale),
      basis: s.tracker ? fromMinor(BigInt(s.tracker.basis), spec.priceScale) : null,
      premium_sum: s.tracker?.premiumSum ?? null,
      premium_count: s.tracker?.premiumCount ?? null,
      next_funding_at: s.tracker ? String(s.tracker.nextFundingAt) : null,
      deficit: fromMinor(BigInt(s.market.deficit), spec.settleScale),
    });
  }
}

const INSURANCE = "@insurance";

function fill(
  tradeId: string,
  orderId: string,
  symbol: string,
  side: "buy" | "sell",
  liquidity: "taker" | "maker",
  told: { memberId: string; action: "open" | "close"; fee: bigint; realised: bigint },
  price: string,
  qty: bigint,
  money: (v: bigint) => string,
  stamp: string,
) {
  return {
    trade_id: tradeId,
    order_id: orderId,
    member_id: told.memberId,
    symbol,
    side,
    action: told.action,
    liquidity,
    price,
    qty: qty.toString(),
    fee: money(told.fee),
    realised: money(told.realised),
    created_at: stamp,
  };
}

function perpetualOf(core: ExchangeCore, symbol: string): Perpetual {
  const perpetual = core.contracts.get(symbol);
  if (!perpetual) throw new Error(`an event of ${symbol}, a contract the core does not hold`);
  return perpetual;
}
