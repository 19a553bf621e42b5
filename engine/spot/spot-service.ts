import type { OperatorAct } from "../operators/audit";
import { fromMinor } from "../../protocol/decimal";
import type { CancelOrder, ChangeMarketRules, HaltMarket, ListMarket, PlaceOrder } from "../core/exchange/commands";
import type { Side, TimeInForce } from "../core/matching/order-book";
import type { SpotCode, SpotMarket } from "../core/spot/spot-market";
import { DurableCore, type DurableCoreOptions } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import { placedAnswer, rejected, type OrderAnswer } from "./order-answer";
import { spotProduct } from "./spot-product";

export type { OrderAnswer, SpotServiceCode } from "./order-answer";

/** A spot order as the API takes it (decimal texts). */
export interface PlaceOrderInput {
  symbol: string;
  side: Side;
  type: "limit" | "market";
  price?: string;
  quantity?: string;
  money?: string;
  tif: TimeInForce;
  /** A stop order (docs/decisions/009): waits until the last price reaches one; `price` is its triggerMoney. */
  stopProfitPrice?: string;
  stopLossPrice?: string;
  /** The member's own id for the order, echoed in its answer and history (decision 022). */
  clientOrderId?: string;
  /** From a margin account (decision 050): "all" (cross) or the market's symbol (its isolated account). */
  margin?: string;
}

export interface SpotServiceOptions extends Omit<DurableCoreOptions, "products"> {
  newOrderId?: () => string;
}

/**
 * Spot trading over the durable layer (decision 017): orders and cancels from members, market
 * listing and changes from operators, each a command through `DurableCore.execute`, answered once
 * it is journaled. Spot's table rows and restore are `spotProduct`; funds moving between a
 * member's accounts are the durable layer's own (`durable.funds`).
 */
export class SpotService {
  private orderCounter = 0;
  private readonly marketListeners: Array<(market: SpotMarket) => Promise<void> | void> = [];
  /** Symbols an operator is adding right now (a second add of the same one is refused). */
  private readonly adding = new Set<string>();

  constructor(
    readonly durable: DurableCore,
    private readonly options: { newOrderId?: () => string } = {},
  ) {}

  /** Starts the durable layer with spot as its product (an engine with more products starts `DurableCore` itself). */
  static async start(options: SpotServiceOptions): Promise<SpotService> {
    const { newOrderId, ...durable } = options;
    return new SpotService(await DurableCore.start({ ...durable, products: [spotProduct] }), { newOrderId });
  }

  get markets(): ReadonlyMap<string, SpotMarket> {
    return this.durable.core.markets;
  }

  /** Listens for markets an operator adds while the engine runs (market data tracks them). */
  onMarketAdded(listener: (market: SpotMarket) => Promise<void> | void): void {
    this.marketListeners.push(listener);
  }

  /** Places an order; a repeated idempotency key answers the first result instead of placing again. */
  async placeOrder(memberId: string, input: PlaceOrderInput, idempotencyKey: string | null): Promise<OrderAnswer> {
    // Internal callers (the simulated liquidity) place without a key: nothing to retry.
    if (idempotencyKey === null) return this.place(memberId, input, null);
    const request = { memberId, key: idempotencyKey, fingerprint: requestFingerprint({ ...input, tif: input.tif }) };
    return this.durable.once(
      request,
      () => this.place(memberId, input, request),
      () => rejected(KEY_REUSED),
    );
  }

  private async place(memberId: string, input: PlaceOrderInput, request: { memberId: string; key: string; fingerprint: string } | null): Promise<OrderAnswer> {
    const orderId = this.options.newOrderId?.() ?? `${Date.now().toString(36)}${(++this.orderCounter).toString(36).padStart(4, "0")}`;
    const command: PlaceOrder = {
      type: "spot.place",
      memberId,
      orderId,
      symbol: input.symbol,
      side: input.side,
      orderType: input.type,
      tif: input.tif,
      price: input.price,
      quantity: input.quantity,
      money: input.money,
      stopProfitPrice: input.stopProfitPrice,
      stopLossPrice: input.stopLossPrice,
      ...(input.clientOrderId !== undefined ? { clientOrderId: input.clientOrderId } : {}),
      ...(input.margin !== undefined ? { margin: input.margin } : {}),
    };
    const answerOf = (outcome: Awaited<ReturnType<typeof this.durable.execute<PlaceOrder>>>) =>
      outcome.code === "OK" ? placedAnswer(orderId, outcome.events, this.markets.get(input.symbol)!.config) : rejected(outcome.code);
    // A refused order with a key is kept too: its retry gets the same refusal.
    return answerOf(await this.durable.execute(command, request ? { keep: { ...request, answer: answerOf } } : {}));
  }

  async cancelOrder(memberId: string, orderId: string): Promise<SpotCode> {
    const command: CancelOrder = { type: "spot.cancel", memberId, orderId };
    const outcome = await this.durable.execute(command);
    // Another member's order is answered like a missing one: nothing about it is revealed.
    return outcome.code === "OK" ? "OK" : "ORDER_UNKNOWN";
  }

  /**
   * Halts or resumes a market (operator), journaled and stored with its row, so a restart keeps
   * it. A market halted already (resumed already) is UNCHANGED: two operators halting at once
   * give one halt and one audit row. The check and the core's apply run in one synchronous step,
   * so the second sees the first's change.
   */
  async setHalted(symbol: string, halted: boolean, act: OperatorAct): Promise<"OK" | "MARKET_UNKNOWN" | "UNCHANGED"> {
    const before = this.markets.get(symbol)?.isHalted;
    if (before === undefined) return "MARKET_UNKNOWN";
    if (before === halted) return "UNCHANGED";
    const command: HaltMarket = { type: "market.halt", symbol, halted };
    const audit = () => act.row(`market:${symbol}`, { halted: before }, { halted }, this.durable.now());
    return (await this.durable.execute(command, { waitProjected: OPERATOR_READ_BACK_MS, audit })).code === "OK" ? "OK" : "MARKET_UNKNOWN";
  }

  /**
   * Lists a new spot market while the engine runs (operator): checked by the core's rules first,
   * stored (with its base asset, when new), then opened for trading. Nothing changes on a refusal.
   */
  async addMarket(def: MarketDefinition, act: OperatorAct): Promise<MarketChange> {
    if (this.markets.has(def.symbol) || this.adding.has(def.symbol)) return { code: "MARKET_EXISTS" };
    const { newBase: base, ...listing } = def;
    const command: ListMarket = { type: "market.list", ...listing, newBaseScale: base?.scale, newBaseName: base?.name };
    // Checked by the core before anything is stored: a refusal changes nothing.
    const config = this.durable.core.listingConfig(command);
    if ("code" in config) return config;
    this.adding.add(def.symbol);
    try {
      const known = await this.durable.db.selectFrom("market_symbol").select("id").where("symbol_name", "=", def.symbol).executeTakeFirst();
      if (known) return { code: "MARKET_EXISTS" };
      const audit = () => act.row(`market:${def.symbol}`, null, def, this.durable.now());
      const outcome = await this.durable.execute(command, { waitProjected: OPERATOR_READ_BACK_MS, audit });
      if (outcome.code !== "OK") return outcome;
      for (const listener of this.marketListeners) await listener(outcome.market);
      return { code: "OK", market: outcome.market };
    } finally {
      this.adding.delete(def.symbol);
    }
  }

  /**
   * Changes a live market's minimum quantity or fees (operator): checked and applied from the
   * next order, journaled and stored with the market's row. Tick, lot and scales stay as listed: resting orders were placed on them.
   */
  async updateMarket(symbol: string, change: { minQuantity?: string; makerFeeBps?: number; takerFeeBps?: number }, act: OperatorAct): Promise<MarketChange> {
    const command: ChangeMarketRules = { type: "market.rules", symbol, ...change };
    const before = this.markets.get(symbol);
    const audit = () => act.row(`market:${symbol}`, before ? marketRulesOf(before.config) : null, change, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: OPERATOR_READ_BACK_MS, audit });
    return outcome.code === "OK" ? { code: "OK", market: outcome.market } : outcome;
  }
}

/**
 * An operator's change is answered once its configuration rows (market, asset) are written too:
 * they are projected in sequence with the rest, so the tables at the projection's cursor show the
 * markets as they were then, and an operator reads back what was just answered (applied and
 * durable either way; the row follows if the tables are slow).
 */
const OPERATOR_READ_BACK_MS = 30_000;

/** A market an operator lists (decimal texts at the market's scales), with its base asset's name when that is new. */
export type MarketDefinition = Omit<ListMarket, "type" | "newBaseScale" | "newBaseName"> & {
  /** A base asset the exchange does not list yet: its scale (decimals) and name. */
  newBase?: { scale: number; name: string };
};

/** What listing or changing a market answers. */
export type MarketChange =
  | { code: "OK"; market: SpotMarket }
  | { code: "MARKET_EXISTS" }
  | { code: "MARKET_UNKNOWN" }
  | { code: "ASSET_UNKNOWN"; problem: string }
  | { code: "BAD_RULES"; problem: string };

/** What an operator's change of a market's rules shows as its audit row's `before`. */
function marketRulesOf(config: SpotMarket["config"]) {
  return {
    minQuantity: fromMinor(config.minQuantity, config.amountScale, { trim: true }),
    makerFeeBps: Number(config.makerFeeBps),
    takerFeeBps: Number(config.takerFeeBps),
  };
}
