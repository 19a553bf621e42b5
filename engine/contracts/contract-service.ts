import { fromMinor } from "../../protocol/money";
import { feeAccount, insuranceAccount } from "../core/ledger/ledger";
import { ContractTape } from "./contract-tape";
import type { ContractCode } from "../core/contracts/contract-market";
import type { Perpetual } from "../core/contracts/perpetual";
import type {
  CancelContractOrder,
  ChangeContractMargin,
  ChangeContractRules,
  CloseContractPositions,
  ContractTick,
  FundInsurance,
  PlaceContractOrder,
  PlaceContractStop,
  SetContractLeverage,
  SetMarginMode,
  SetPositionStops,
} from "../core/exchange/commands";
import type { CoreEvent } from "../core/exchange/events";
import type { ContractRefusal } from "../core/exchange/exchange-core";
import type { Side, TimeInForce } from "../core/matching/order-book";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { OperatorAct } from "../operators/audit";

/** A contract order as the API takes it (decimal texts; whole contracts). */
export interface ContractOrderInput {
  symbol: string;
  side: Side;
  action: "open" | "close";
  type: "limit" | "market";
  price?: string;
  quantity: string;
  tif: TimeInForce;
  /** A stop order (decision 048): placed once this price reaches `triggerPrice`. */
  trigger?: { by: "mark" | "last"; price: string };
}

/** A position's take profit and stop loss as the API takes them. */
export interface PositionStopsInput {
  symbol: string;
  triggerBy: "mark" | "last";
  takeProfit?: string;
  stopLoss?: string;
}

export type ContractServiceCode = ContractCode | ContractRefusal | typeof KEY_REUSED;

/** What placing a contract order answers (and what a retry with its key gets back). */
export interface ContractOrderAnswer {
  code: ContractServiceCode;
  orderId: string | null;
  status: "open" | "filled" | "cancelled" | "rejected" | "waiting";
  /** Contracts filled now, and left (whole contracts). */
  filled: string;
  remaining: string;
  trades: number;
}

/**
 * Perpetual contracts over the durable layer (decision 046): members' orders, cancels, leverage,
 * margin and one-key closes, the price loop's ticks and operators' rule changes, each a command
 * through `DurableCore.execute`, answered once journaled. Its rows and restore are
 * `contractProduct`; reads of the live state come from memory.
 */
export class ContractService {
  private counter = 0;
  /** Each contract's latest trades, last price and book, and their pushes. */
  readonly tape: ContractTape;

  constructor(
    readonly durable: DurableCore,
    private readonly newOrderId: () => string = () => `c${Date.now().toString(36)}${(++this.counter).toString(36).padStart(4, "0")}`,
  ) {
    this.tape = new ContractTape(durable);
  }

  /** A contract's last trade price, if it traded. */
  lastPrice(symbol: string): bigint | undefined {
    return this.tape.lastPrice(symbol);
  }

  get contracts(): ReadonlyMap<string, Perpetual> {
    return this.durable.core.contracts;
  }

  /** Places an order; a repeated idempotency key answers the first result instead of placing again. */
  async placeOrder(memberId: string, input: ContractOrderInput, idempotencyKey: string | null): Promise<ContractOrderAnswer> {
    if (idempotencyKey === null) return this.place(memberId, input, null);
    const request = { memberId, key: `contract:${idempotencyKey}`, fingerprint: requestFingerprint(fingerprintOf(input)) };
    return this.durable.once(
      request,
      () => this.place(memberId, input, request),
      () => refused(KEY_REUSED),
    );
  }

  private async place(
    memberId: string,
    input: ContractOrderInput,
    request: { memberId: string; key: string; fingerprint: string } | null,
  ): Promise<ContractOrderAnswer> {
    const orderId = this.newOrderId();
    if (input.trigger) return this.placeStop(memberId, orderId, input, input.trigger, request);
    const command: PlaceContractOrder = {
      type: "contract.place",
      memberId,
      orderId,
      symbol: input.symbol,
      side: input.side,
      action: input.action,
      orderType: input.type,
      tif: input.tif,
      quantity: input.quantity,
      ...(input.price !== undefined ? { price: input.price } : {}),
    };
    const answerOf = (outcome: Awaited<ReturnType<typeof this.durable.execute<PlaceContractOrder>>>) =>
      outcome.code === "OK" ? placedAnswer(orderId, outcome.events) : refused(outcome.code);
    return answerOf(await this.durable.execute(command, request ? { keep: { ...request, answer: answerOf } } : {}));
  }

  private async placeStop(
    memberId: string,
    stopId: string,
    input: ContractOrderInput,
    trigger: { by: "mark" | "last"; price: string },
    request: { memberId: string; key: string; fingerprint: string } | null,
  ): Promise<ContractOrderAnswer> {
    const command: PlaceContractStop = {
      type: "contract.stop",
      memberId,
      stopId,
      symbol: input.symbol,
      side: input.side,
      action: input.action,
      orderType: input.type,
      tif: input.tif,
      quantity: input.quantity,
      triggerBy: trigger.by,
      triggerPrice: trigger.price,
      ...(input.price !== undefined ? { price: input.price } : {}),
    };
    const answerOf = (outcome: Awaited<ReturnType<typeof this.durable.execute<PlaceContractStop>>>): ContractOrderAnswer =>
      outcome.code === "OK" ? { code: "OK", orderId: stopId, status: "waiting", filled: "0", remaining: input.quantity, trades: 0 } : refused(outcome.code);
    return answerOf(await this.durable.execute(command, request ? { keep: { ...request, answer: answerOf } } : {}));
  }

  /** Sets a position's take profit and stop loss (replacing those set before); with a key, a retry answers the first. */
  async setPositionStops(
    memberId: string,
    input: PositionStopsInput,
    idempotencyKey: string | null,
  ): Promise<{ code: ContractServiceCode; stopId: string | null }> {
    const run = async (keep?: { memberId: string; key: string; fingerprint: string }) => {
      const stopId = this.newOrderId();
      const command: SetPositionStops = { type: "contract.tpsl", memberId, stopId, ...input };
      const answerOf = (outcome: { code: ContractServiceCode }) => ({ code: outcome.code, stopId: outcome.code === "OK" ? stopId : null });
      return answerOf(await this.durable.execute(command, keep ? { keep: { ...keep, answer: answerOf } } : {}));
    };
    if (idempotencyKey === null) return run();
    const request = { memberId, key: `contract-tpsl:${idempotencyKey}`, fingerprint: requestFingerprint({ ...input }) };
    return this.durable.once(
      request,
      () => run(request),
      () => ({ code: KEY_REUSED, stopId: null }),
    );
  }

  async cancelOrder(memberId: string, orderId: string): Promise<ContractServiceCode> {
    const command: CancelContractOrder = { type: "contract.cancel", memberId, orderId };
    return (await this.durable.execute(command)).code;
  }

  /** Sets a member's leverage in a contract; with a key, a retry answers the first change. */
  async setLeverage(memberId: string, symbol: string, leverage: number, idempotencyKey: string | null = null): Promise<ContractServiceCode> {
    const command: SetContractLeverage = { type: "contract.leverage", memberId, symbol, leverage };
    return this.keyed(memberId, idempotencyKey, `contract-leverage:${idempotencyKey}`, { symbol, leverage: String(leverage) }, command);
  }

  /** Sets a member's margin mode in a contract; with a key, a retry answers the first change. */
  async setMarginMode(memberId: string, symbol: string, mode: "isolated" | "cross", idempotencyKey: string | null = null): Promise<ContractServiceCode> {
    const command: SetMarginMode = { type: "contract.margin_mode", memberId, symbol, mode };
    return this.keyed(memberId, idempotencyKey, `contract-mode:${idempotencyKey}`, { symbol, mode }, command);
  }

  /** Adds margin to a position (positive) or takes some back (negative), in the settlement asset; with a key, a retry moves nothing again. */
  async changeMargin(memberId: string, symbol: string, amount: string, idempotencyKey: string | null = null): Promise<ContractServiceCode> {
    const command: ChangeContractMargin = { type: "contract.margin", memberId, symbol, amount };
    return this.keyed(memberId, idempotencyKey, `contract-margin:${idempotencyKey}`, { symbol, amount }, command);
  }

  /** A member's command answered once per idempotency key (its code kept with it in the journal). */
  private async keyed(
    memberId: string,
    idempotencyKey: string | null,
    key: string,
    request: Record<string, string>,
    command: SetContractLeverage | ChangeContractMargin | SetMarginMode,
  ): Promise<ContractServiceCode> {
    if (idempotencyKey === null) return (await this.durable.execute(command)).code;
    const keep = { memberId, key, fingerprint: requestFingerprint(request) };
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }

  /**
   * One-key close of the member's positions in the contracts named; the key makes a retry answer
   * the first close. `asked`: the request as the member sent it (its fingerprint: a retry after the
   * close finds no positions left, so the contracts closed are not the request).
   */
  async closePositions(memberId: string, symbols: string[], idempotencyKey: string | null, asked: string = symbols.join(",")): Promise<ContractServiceCode> {
    const run = async (keep?: { memberId: string; key: string; fingerprint: string }) => {
      const command: CloseContractPositions = { type: "contract.close_all", memberId, orderId: this.newOrderId(), symbols };
      return (await this.durable.execute(command, keep ? { keep: { ...keep, answer: (outcome) => outcome.code } } : {})).code;
    };
    if (idempotencyKey === null) return run();
    const request = { memberId, key: `contract-close:${idempotencyKey}`, fingerprint: requestFingerprint({ asked }) };
    return this.durable.once(
      request,
      () => run(request),
      () => KEY_REUSED,
    );
  }

  /** The price loop's second (price-loop.ts). */
  async tick(prices: ContractTick["prices"], at: number): Promise<ContractServiceCode> {
    if (prices.length === 0) return "CONTRACT_BAD_ORDER";
    const command: ContractTick = { type: "contract.tick", at, prices };
    return (await this.durable.execute(command)).code;
  }

  /** Per settlement coin: its insurance fund, the fees collected and the contracts' uncovered deficit (minor units). */
  funds(): Array<{ coin: string; insurance: bigint; fees: bigint; deficit: bigint }> {
    const coins = [...new Set([...this.contracts.values()].map((p) => p.config.settleAsset))].sort();
    const { ledger } = this.durable.core;
    return coins.map((coin) => ({
      coin,
      insurance: ledger.posted(insuranceAccount(coin)),
      fees: ledger.posted(feeAccount(coin)),
      deficit: [...this.contracts.values()].filter((p) => p.config.settleAsset === coin).reduce((sum, p) => sum + p.market.uncovered, 0n),
    }));
  }

  /** An operator moves fees into a settlement coin's insurance fund (audited); a retried key moves nothing again. */
  async fundInsurance(coin: string, amount: string, idempotencyKey: string, act: OperatorAct): Promise<ContractServiceCode> {
    const before = this.funds().find((f) => f.coin === coin);
    const command: FundInsurance = { type: "contract.insurance", asset: coin, amount };
    const audit = () =>
      act.row(`insurance:${coin}`, before ? { insurance: before.insurance.toString(), fees: before.fees.toString() } : null, { amount }, this.durable.now());
    // Operators' keys are the exchange's own (member 0): one key moves fees once, whoever retries it.
    const keep = { memberId: "0", key: `insurance:${idempotencyKey}`, fingerprint: requestFingerprint({ coin, amount }) };
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { audit, keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }

  /** An operator's change to a contract (halt, fees, order limits, band), answered once its row is written. */
  async changeRules(change: Omit<ChangeContractRules, "type">, act: OperatorAct): Promise<{ code: ContractServiceCode; problem?: string }> {
    const perpetual = this.contracts.get(change.symbol);
    if (!perpetual) return { code: "CONTRACT_UNKNOWN" };
    const c = perpetual.config;
    const before = {
      halted: perpetual.halted,
      makerFeeBps: c.makerFeeBps,
      takerFeeBps: c.takerFeeBps,
      minQty: String(c.minQty),
      maxQty: String(c.maxQty),
      priceBand: String(c.priceBand),
    };
    const command: ChangeContractRules = { type: "contract.rules", ...change };
    const audit = () => act.row(`contract:${change.symbol}`, before, change, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: 30_000, audit });
    return outcome.code === "OK" ? { code: "OK" } : { code: outcome.code, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  }
}

/** An order's fields as its idempotency fingerprint takes them (a stop's trigger flattened). */
function fingerprintOf({ trigger, ...order }: ContractOrderInput): Record<string, string | undefined> {
  return { ...order, ...(trigger && { triggerBy: trigger.by, triggerPrice: trigger.price }) };
}

export function refused(code: ContractServiceCode): ContractOrderAnswer {
  return { code, orderId: null, status: "rejected", filled: "0", remaining: "0", trades: 0 };
}

/** The answer to an accepted order, from its command's events: what it filled, and whether it rests or ended. */
export function placedAnswer(orderId: string, events: readonly CoreEvent[]): ContractOrderAnswer {
  let quantity = 0n;
  let filled = 0n;
  let trades = 0;
  let status: ContractOrderAnswer["status"] = "open";
  for (const e of events) {
    if (e.type === "contract.placed" && e.orderId === orderId) quantity = e.quantity;
    else if (e.type === "contract.trade" && (e.takerOrderId === orderId || e.makerOrderId === orderId)) {
      filled += e.qty;
      trades++;
    } else if (e.type === "contract.order_ended" && e.orderId === orderId) status = e.remaining === 0n ? "filled" : "cancelled";
  }
  return { code: "OK", orderId, status, filled: fromMinor(filled, 0), remaining: fromMinor(quantity - filled, 0), trades };
}
