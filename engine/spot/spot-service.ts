import type { Kysely, Transaction } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import { accountId, Ledger, type AccountKind, type AccountRef, type TransferEvent } from "../core/ledger/ledger";
import type { Side, TimeInForce } from "../core/matching/order-book";
import { SpotMarket, type SpotCode, type SpotResult } from "../core/spot/spot-market";
import type { Database } from "../store/schema";
import { GroupCommitter } from "./group-commit";

/**
 * The spot exchange's I/O layer: rebuilds the ledger and the books from the database at start,
 * runs each command through the pure core (one writer: the event loop), and answers only after
 * the command's orders, trades and ledger changes are committed (group commit). A retried
 * command with the same idempotency key gets the first answer back.
 */
export interface PlaceOrderInput {
  symbol: string;
  side: Side;
  type: "limit" | "market";
  price?: string;
  quantity?: string;
  money?: string;
  tif: TimeInForce;
}

export interface OrderAnswer {
  code: SpotCode;
  orderId: string | null;
  status: "open" | "filled" | "cancelled" | "rejected";
  filled: string;
  trades: number;
}

export interface SpotServiceOptions {
  db: Kysely<Database>;
  onFatal: (error: unknown) => void;
  now?: () => number;
  newOrderId?: () => string;
}

type Db = Kysely<Database> | Transaction<Database>;

export class SpotService {
  readonly ledger = new Ledger();
  readonly markets = new Map<string, SpotMarket>();
  private readonly assetScales = new Map<string, number>();
  private readonly committer: GroupCommitter;
  private readonly inFlight = new Map<string, Promise<OrderAnswer>>();
  /** Symbol of every resting order, so a cancel finds it even before its placement is committed. */
  private readonly restingSymbol = new Map<string, string>();
  private orderCounter = 0;
  /** Settlement transfer ids: a prefix unique to this process, then a counter (never repeat across restarts). */
  private readonly transferPrefix = `s${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  private transferCounter = 0;

  private constructor(private readonly options: SpotServiceOptions) {
    this.committer = new GroupCommitter(options.db, options.onFatal);
  }

  /** Loads assets, symbols, balances, holds and open orders (in time order) from the database. */
  static async start(options: SpotServiceOptions): Promise<SpotService> {
    const service = new SpotService(options);
    const { db } = options;
    for (const a of await db.selectFrom("asset").selectAll().execute()) service.assetScales.set(a.code, a.scale);
    const symbols = await db.selectFrom("market_symbol").selectAll().where("enabled", "=", true).where("contract_type", "=", 0).execute();
    for (const s of symbols) {
      const baseScale = service.assetScales.get(s.coin_symbol);
      const quoteScale = service.assetScales.get(s.quote_symbol);
      if (baseScale === undefined || quoteScale === undefined) continue;
      service.markets.set(
        s.symbol_name,
        new SpotMarket(
          {
            symbol: s.symbol_name,
            base: s.coin_symbol,
            quote: s.quote_symbol,
            priceScale: s.price_scale,
            amountScale: s.amount_scale,
            baseAssetScale: baseScale,
            quoteAssetScale: quoteScale,
            tickSize: toMinor(trim(s.tick_size), s.price_scale),
            lotSize: toMinor(trim(s.lot_size), s.amount_scale),
            minQuantity: toMinor(trim(s.min_quantity), s.amount_scale),
            makerFeeBps: BigInt(s.maker_fee_bps),
            takerFeeBps: BigInt(s.taker_fee_bps),
          },
          service.ledger,
          () => `${service.transferPrefix}-${(++service.transferCounter).toString(36)}`,
        ),
      );
    }
    for (const a of await db.selectFrom("ledger_account").selectAll().execute()) {
      const scale = service.scaleOf(a.asset);
      service.ledger.restoreBalance(a.id, toMinor(trim(a.posted), scale), toMinor(trim(a.held), scale));
    }
    for (const h of await db.selectFrom("ledger_hold").selectAll().execute()) {
      service.ledger.restoreHold(h.id, h.account_id, h.asset, toMinor(trim(h.remaining), service.scaleOf(h.asset)));
    }
    const open = await db.selectFrom("spot_order").selectAll().where("status", "=", "open").orderBy("seq").execute();
    for (const o of open) {
      const market = service.markets.get(o.symbol);
      if (!market) continue;
      const c = market.config;
      const remaining = toMinor(trim(o.quantity!), c.amountScale) - toMinor(trim(o.filled), c.amountScale);
      market.restore({ orderId: o.order_id, memberId: o.member_id, side: o.side as Side, price: toMinor(trim(o.price!), c.priceScale), remaining });
      service.restingSymbol.set(o.order_id, o.symbol);
    }
    return service;
  }

  scaleOf(asset: string): number {
    const scale = this.assetScales.get(asset);
    if (scale === undefined) throw new Error(`unknown asset ${asset}`);
    return scale;
  }

  /** Places an order; a repeated idempotency key answers the first result instead of placing again. */
  async placeOrder(memberId: string, input: PlaceOrderInput, idempotencyKey: string | null): Promise<OrderAnswer> {
    // Internal callers (the simulated liquidity) place without a key: nothing to retry.
    if (idempotencyKey === null) return this.placeOnce(memberId, input, null);
    const flightKey = `${memberId}:${idempotencyKey}`;
    const pending = this.inFlight.get(flightKey);
    if (pending) return pending;
    const attempt = this.placeOnce(memberId, input, idempotencyKey).finally(() => this.inFlight.delete(flightKey));
    this.inFlight.set(flightKey, attempt);
    return attempt;
  }

  private async placeOnce(memberId: string, input: PlaceOrderInput, idempotencyKey: string | null): Promise<OrderAnswer> {
    const earlier = idempotencyKey === null ? undefined : await this.options.db.selectFrom("idempotency_key").select("response").where("member_id", "=", memberId).where("key", "=", idempotencyKey).executeTakeFirst();
    if (earlier) return JSON.parse(earlier.response) as OrderAnswer;

    const reject = (code: SpotCode): OrderAnswer => ({ code, orderId: null, status: "rejected", filled: "0", trades: 0 });
    const market = this.markets.get(input.symbol);
    if (!market) return reject("ORDER_BAD_COMMAND");
    const c = market.config;
    const parsed = parseAmounts(input, c.priceScale, c.amountScale, this.scaleOf(c.quote));
    if ("code" in parsed) return reject(parsed.code);

    const orderId = this.options.newOrderId?.() ?? `${Date.now().toString(36)}${(++this.orderCounter).toString(36).padStart(4, "0")}`;
    const result = market.place({ orderId, memberId, side: input.side, type: input.type, tif: input.tif, ...parsed });
    if (result.code === "OK" && result.resting) this.restingSymbol.set(orderId, c.symbol);
    for (const closed of result.closed) this.restingSymbol.delete(closed.orderId);
    const filledQty = result.trades.filter((t) => t.takerOrderId === orderId).reduce((sum, t) => sum + t.quantity, 0n);
    const closed = result.closed.find((x) => x.orderId === orderId);
    const answer: OrderAnswer =
      result.code !== "OK"
        ? reject(result.code)
        : {
            code: "OK",
            orderId,
            status: closed ? (closed.status === "filled" ? "filled" : "cancelled") : "open",
            filled: fromMinor(filledQty, c.amountScale),
            trades: result.trades.length,
          };
    await this.committer.commit(async (trx) => {
      if (result.code === "OK") {
        await trx
          .insertInto("spot_order")
          .values({
            order_id: orderId,
            member_id: memberId,
            symbol: c.symbol,
            side: input.side,
            type: input.type,
            tif: input.tif,
            price: parsed.price === undefined ? null : fromMinor(parsed.price, c.priceScale),
            quantity: parsed.quantity === undefined ? null : fromMinor(parsed.quantity, c.amountScale),
            money: parsed.money === undefined ? null : fromMinor(parsed.money, this.scaleOf(c.quote)),
            filled: fromMinor(filledQty, c.amountScale),
            status: answer.status,
            reason: closed?.reason ?? null,
            created_at: new Date(this.now()),
            updated_at: new Date(this.now()),
          })
          .execute();
        await this.persistResult(trx, market, result, orderId);
      }
      if (idempotencyKey !== null) {
        await trx.insertInto("idempotency_key").values({ member_id: memberId, key: idempotencyKey, response: JSON.stringify(answer), created_at: new Date(this.now()) }).execute();
      }
    });
    return answer;
  }

  async cancelOrder(memberId: string, orderId: string): Promise<SpotCode> {
    const symbol = this.restingSymbol.get(orderId);
    const market = symbol ? this.markets.get(symbol) : undefined;
    if (!market) return "ORDER_UNKNOWN";
    const result = market.cancel(orderId, memberId);
    // Another member's order is answered like a missing one: nothing about it is revealed.
    if (result.code !== "OK") return "ORDER_UNKNOWN";
    this.restingSymbol.delete(orderId);
    await this.committer.commit((trx) => this.persistResult(trx, market, result, null));
    return "OK";
  }

  /** Moves funds between a member's own accounts (funding ↔ spot), as a ledger transfer. */
  async transferBetween(memberId: string, asset: string, from: AccountKind, to: AccountKind, amount: string, transferId: string): Promise<"OK" | "RISK_INSUFFICIENT_AVAILABLE" | "ORDER_BAD_COMMAND"> {
    let minor: bigint;
    try {
      minor = toMinor(amount, this.scaleOf(asset));
    } catch {
      return "ORDER_BAD_COMMAND";
    }
    // A retry after a restart: the journal already has it (memory only knows this run's ids).
    if (await this.journalHas(transferId)) return "OK";
    const r = this.ledger.transfer(transferId, { owner: memberId, kind: from, asset }, { owner: memberId, kind: to, asset }, minor);
    if (r.code === "LEDGER_INSUFFICIENT_AVAILABLE") return "RISK_INSUFFICIENT_AVAILABLE";
    if (r.code !== "OK") return "ORDER_BAD_COMMAND";
    await this.committer.commit((trx) => this.persistTransfers(trx, r.transfers));
    return "OK";
  }

  /** A deposit from outside (operator credit, demo funds, later the chain watcher). */
  async deposit(memberId: string, asset: string, kind: AccountKind, amount: string, depositId: string): Promise<boolean> {
    if (await this.journalHas(depositId)) return false;
    const r = this.ledger.deposit(depositId, { owner: memberId, kind, asset }, toMinor(amount, this.scaleOf(asset)));
    if (r.code !== "OK") return false;
    await this.committer.commit((trx) => this.persistTransfers(trx, r.transfers));
    return true;
  }

  /** A member's balances of one account kind, as decimal strings. */
  balances(memberId: string, kind: AccountKind): Array<{ coin: string; available: string; frozen: string }> {
    return [...this.assetScales.entries()].map(([asset, scale]) => {
      const ref: AccountRef = { owner: memberId, kind, asset };
      return { coin: asset, available: fromMinor(this.ledger.available(ref), scale), frozen: fromMinor(this.ledger.held(ref), scale) };
    });
  }

  private async journalHas(transferId: string): Promise<boolean> {
    const row = await this.options.db.selectFrom("ledger_transfer").select("seq").where("id", "=", transferId).executeTakeFirst();
    return row !== undefined;
  }

  drain(): Promise<void> {
    return this.committer.drain();
  }

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  /** Writes what one command changed: makers' fills and states, trades, the ledger. */
  private async persistResult(trx: Db, market: SpotMarket, result: SpotResult, takerOrderId: string | null): Promise<void> {
    const c = market.config;
    const quoteScale = this.scaleOf(c.quote);
    const baseScale = this.scaleOf(c.base);
    const makerFills = new Map<string, bigint>();
    for (const t of result.trades) {
      makerFills.set(t.makerOrderId, (makerFills.get(t.makerOrderId) ?? 0n) + t.quantity);
      await trx
        .insertInto("spot_trade")
        .values({
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
          created_at: new Date(this.now()),
        })
        .execute();
    }
    for (const [orderId, quantity] of makerFills) {
      await trx
        .updateTable("spot_order")
        .set((eb) => ({ filled: eb("filled", "+", fromMinor(quantity, c.amountScale)), updated_at: new Date(this.now()) }))
        .where("order_id", "=", orderId)
        .execute();
    }
    for (const closed of result.closed) {
      if (closed.orderId === takerOrderId) continue; // written with the order itself
      await trx
        .updateTable("spot_order")
        .set({ status: closed.status, reason: closed.reason ?? null, updated_at: new Date(this.now()) })
        .where("order_id", "=", closed.orderId)
        .execute();
    }
    await this.persistTransfers(trx, result.transfers);
  }

  /** Appends the transfers to the journal and writes the touched balances and holds as they are now. */
  private async persistTransfers(trx: Db, transfers: TransferEvent[]): Promise<void> {
    if (!transfers.length) return;
    await trx
      .insertInto("ledger_transfer")
      .values(
        transfers.map((t) => ({
          id: t.id,
          phase: t.phase,
          debit: t.debit,
          credit: t.credit,
          asset: t.asset,
          amount: fromMinor(t.amount, this.scaleOf(t.asset)),
          pending_id: t.pendingId ?? null,
          created_at: new Date(this.now()),
        })),
      )
      .execute();
    const accounts = new Set<string>();
    const holds = new Map<string, TransferEvent>();
    for (const t of transfers) {
      accounts.add(t.debit);
      if (t.credit) accounts.add(t.credit);
      if (t.phase === "pending") holds.set(t.id, t);
      if (t.phase === "post" || t.phase === "void") holds.set(t.pendingId!, t);
    }
    for (const key of accounts) {
      const [owner, kind, asset] = key.split("/") as [string, string, string];
      const scale = this.scaleOf(asset);
      const { posted, held } = this.ledger.balanceOf(key);
      await trx
        .insertInto("ledger_account")
        .values({ id: key, owner, kind, asset, posted: fromMinor(posted, scale), held: fromMinor(held, scale) })
        .onConflict((oc) => oc.column("id").doUpdateSet({ posted: fromMinor(posted, scale), held: fromMinor(held, scale) }))
        .execute();
    }
    for (const [holdId, t] of holds) {
      const remaining = this.ledger.holdRemaining(holdId);
      if (remaining === 0n) await trx.deleteFrom("ledger_hold").where("id", "=", holdId).execute();
      else
        await trx
          .insertInto("ledger_hold")
          .values({ id: holdId, account_id: t.debit, asset: t.asset, remaining: fromMinor(remaining, this.scaleOf(t.asset)) })
          .onConflict((oc) => oc.column("id").doUpdateSet({ remaining: fromMinor(remaining, this.scaleOf(t.asset)) }))
          .execute();
    }
  }
}

function trim(value: string): string {
  const text = String(value);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** Decimal inputs to the core's units; too many decimals is a tick or lot error. */
function parseAmounts(
  input: PlaceOrderInput,
  priceScale: number,
  amountScale: number,
  quoteScale: number,
): { price?: bigint; quantity?: bigint; money?: bigint } | { code: SpotCode } {
  const out: { price?: bigint; quantity?: bigint; money?: bigint } = {};
  try {
    if (input.price !== undefined) out.price = toMinor(input.price, priceScale);
  } catch {
    return { code: "ORDER_BAD_TICK" };
  }
  try {
    if (input.quantity !== undefined) out.quantity = toMinor(input.quantity, amountScale);
  } catch {
    return { code: "ORDER_BAD_LOT" };
  }
  try {
    if (input.money !== undefined) out.money = toMinor(input.money, quoteScale);
  } catch {
    return { code: "ORDER_BAD_COMMAND" };
  }
  return out;
}

export { accountId };
