import { createHash } from "node:crypto";
import { accountId, accountOf, SYSTEM_OWNER, type AccountKind, type AccountRef, type Ledger, type TransferEvent } from "../ledger/ledger";

/**
 * The pulse pick (issue 33), pure and synchronous: a member bets that a market's index price ends
 * a fixed time from now above (`call`) or below (`put`) where it is. The bet moves from the
 * member's funding account to the order's own account `pulse:<id>` at entry; at the close the order
 * is settled once: a **win** pays the bet back with `bet × payout rate` from the pulse pool
 * (`@system/pulse_pool`, the exchange's side of every order, which may go below zero), a **loss**
 * moves the bet to the pool, a **tie** (the close price equals the entry price) or a close with no
 * fresh price (`refund`) gives the bet back whole.
 *
 * Prices are facts the commands carry (the engine reads them from the spot index the contracts
 * use): an entry's price with the time it was read, a settlement's close price per market and
 * second. A price older than `STALE_MS` at the moment it stands for is no price: an entry is refused
 * (`PULSE_NO_PRICE`), a close refunded. So a replay settles every order as it was settled, and an
 * order whose close fell while the engine was down (no price was read then) is refunded at start.
 *
 * Exposure: per market and direction, what the pool would pay if every open order on that side won
 * (`bet × rate`) stays within the market's limit; an order beyond it is refused (`PULSE_EXPOSURE`).
 */
export const PULSE_RATE_SCALE = 4;
export const PULSE_RATE_ONE = 10n ** BigInt(PULSE_RATE_SCALE);
/** A price read longer ago than this, at the moment it stands for, is no price (ms). */
export const STALE_MS = 5_000;
/** Orders settled per settlement command at most (the rest at the next). */
export const SETTLEMENTS_PER_COMMAND = 5_000;

export type PulseDirection = "call" | "put";
export type PulseOutcome = "win" | "lose" | "tie" | "refund";

/** A duration offered and what a win pays on top of the bet (PULSE_RATE_SCALE: 8,500 is 85 %). */
export interface PulseDuration {
  seconds: number;
  payoutRate: bigint;
}

/** One market of the pulse pick: its durations, the bet's bounds and the pool's exposure limit per direction (minor units of the asset). */
export interface PulseMarket {
  symbol: string;
  /** What bets are placed and paid in (USDT). */
  asset: string;
  durations: PulseDuration[];
  minBet: bigint;
  maxBet: bigint;
  exposureLimit: bigint;
  enabled: boolean;
}

export interface PulseOrder {
  readonly id: string;
  readonly owner: string;
  readonly symbol: string;
  readonly direction: PulseDirection;
  readonly bet: bigint;
  readonly payoutRate: bigint;
  /** The index price at entry (minor units of the price, as the command gave it). */
  readonly entryPrice: bigint;
  readonly openAt: number;
  readonly closeAt: number;
}

export type PulseCode =
  | "OK"
  | "PULSE_UNKNOWN_MARKET"
  | "PULSE_MARKET_CLOSED"
  | "PULSE_BAD_DURATION"
  | "PULSE_BAD_AMOUNT"
  | "PULSE_AMOUNT_LIMITS"
  | "PULSE_INSUFFICIENT"
  | "PULSE_NO_PRICE"
  | "PULSE_EXPOSURE"
  | "PULSE_BAD_RULES";

export type PulseEvent =
  | { type: "pulse.opened"; orderId: string; memberId: string; symbol: string; direction: PulseDirection; bet: bigint; closeAt: number }
  | {
      type: "pulse.settled";
      orderId: string;
      memberId: string;
      symbol: string;
      outcome: PulseOutcome;
      bet: bigint;
      /** What came back to the member: bet + profit on a win, the bet on a tie or refund, 0 on a loss. */
      paid: bigint;
      /** The close price (null: none fresh, refunded). */
      closePrice: bigint | null;
    }
  | { type: "pulse.market"; symbol: string };

export const pulseKind = (orderId: string): AccountKind => `pulse:${orderId}`;
export const pulsePoolAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "pulse_pool", asset });

/** A close price: a market's index at a second, read at `readAt` (ms). */
export interface ClosePrice {
  symbol: string;
  second: number;
  price: bigint;
  readAt: number;
}

/** How an order ends at `close` (null: no fresh price for its close). */
export function outcomeOf(order: Pick<PulseOrder, "direction" | "entryPrice" | "closeAt">, close: bigint | null): PulseOutcome {
  if (close === null) return "refund";
  if (close === order.entryPrice) return "tie";
  return close > order.entryPrice === (order.direction === "call") ? "win" : "lose";
}

/** What a win pays on top of the bet: `bet × rate`, rounded down (the pool never pays more than the rate). */
export const profitOf = (bet: bigint, rate: bigint) => (bet * rate) / PULSE_RATE_ONE;

export interface PulseState {
  markets: Array<{
    symbol: string;
    asset: string;
    durations: Array<[number, string]>;
    minBet: string;
    maxBet: string;
    exposureLimit: string;
    enabled: boolean;
  }>;
  /** Lines of `id, owner, symbol, direction, bet, rate, entry price, open at, close at`. */
  orders: string;
}

export class PulsePick {
  readonly markets = new Map<string, PulseMarket>();
  private readonly orders = new Map<string, PulseOrder>();
  private readonly ofMember = new Map<string, Set<PulseOrder>>();
  /** Open orders by close time (a sorted array: appended in time order, as entries come). */
  private closing: PulseOrder[] = [];
  private closingFrom = 0;
  /** What the pool would pay if every open order won, per `symbol|direction`. */
  private readonly exposure = new Map<string, bigint>();

  constructor(
    private readonly ledger: Ledger,
    private readonly nextId: () => string,
  ) {}

  /** Why a market's rules cannot be, or null. */
  static marketProblem(m: PulseMarket): string | null {
    if (m.durations.length === 0 || m.durations.length > 8) return "one to eight durations";
    const seconds = new Set<number>();
    for (const d of m.durations) {
      if (!Number.isInteger(d.seconds) || d.seconds < 10 || d.seconds > 86_400) return "each duration is 10 s to a day, in whole seconds";
      if (seconds.has(d.seconds)) return "each duration once";
      seconds.add(d.seconds);
      if (d.payoutRate <= 0n || d.payoutRate > PULSE_RATE_ONE) return "a payout rate is above 0 and at most 100 %";
    }
    if (m.minBet <= 0n || m.maxBet < m.minBet) return "the smallest bet is positive and not above the largest";
    if (m.exposureLimit < m.maxBet) return "the exposure limit is at least the largest bet";
    return null;
  }

  configureMarket(market: PulseMarket): void {
    this.markets.set(market.symbol, { ...market, durations: [...market.durations].sort((a, b) => a.seconds - b.seconds) });
  }

  order(id: string): PulseOrder | undefined {
    return this.orders.get(id);
  }

  ordersOf(owner: string): ReadonlySet<PulseOrder> {
    return this.ofMember.get(owner) ?? new Set();
  }

  get openCount(): number {
    return this.orders.size;
  }

  /** What the pool would pay now if every open order of a market on one side won. */
  exposureOf(symbol: string, direction: PulseDirection): bigint {
    return this.exposure.get(`${symbol}|${direction}`) ?? 0n;
  }

  /**
   * A new order `id`: `bet` on `direction` for `seconds`, entered at `entryPrice` read at `readAt`
   * (refused when older than STALE_MS at `at`), its bet moved from the member's funding account.
   */
  open(
    id: string,
    owner: string,
    request: { symbol: string; direction: PulseDirection; seconds: number; bet: bigint; entryPrice: bigint; readAt: number },
    at: number,
    out: Array<PulseEvent | TransferEvent>,
  ): PulseCode {
    const m = this.markets.get(request.symbol);
    if (!m) return "PULSE_UNKNOWN_MARKET";
    if (!m.enabled) return "PULSE_MARKET_CLOSED";
    const duration = m.durations.find((d) => d.seconds === request.seconds);
    if (!duration) return "PULSE_BAD_DURATION";
    if (request.bet <= 0n) return "PULSE_BAD_AMOUNT";
    if (request.bet < m.minBet || request.bet > m.maxBet) return "PULSE_AMOUNT_LIMITS";
    if (request.entryPrice <= 0n || !(request.readAt <= at) || at - request.readAt > STALE_MS) return "PULSE_NO_PRICE";
    const key = `${m.symbol}|${request.direction}`;
    const exposed = (this.exposure.get(key) ?? 0n) + profitOf(request.bet, duration.payoutRate);
    if (exposed > m.exposureLimit) return "PULSE_EXPOSURE";
    const funding = this.ledger.account({ owner, kind: "funding", asset: m.asset });
    if (funding.posted - funding.held < request.bet) return "PULSE_INSUFFICIENT";
    out.push(this.move(funding, this.ledger.account({ owner, kind: pulseKind(id), asset: m.asset }), request.bet));
    const order: PulseOrder = {
      id,
      owner,
      symbol: m.symbol,
      direction: request.direction,
      bet: request.bet,
      payoutRate: duration.payoutRate,
      entryPrice: request.entryPrice,
      openAt: at,
      closeAt: at + duration.seconds * 1000,
    };
    this.add(order);
    out.push({ type: "pulse.opened", orderId: id, memberId: owner, symbol: m.symbol, direction: request.direction, bet: request.bet, closeAt: order.closeAt });
    return "OK";
  }

  /** When the next open order closes (infinite with none). */
  nextClose(): number {
    return this.closingFrom < this.closing.length ? this.closing[this.closingFrom]!.closeAt : Number.POSITIVE_INFINITY;
  }

  /** The (market, second) pairs whose price the orders closing by `at` need, at most SETTLEMENTS_PER_COMMAND orders' worth. */
  closesDue(at: number): Array<{ symbol: string; second: number }> {
    const wanted = new Map<string, { symbol: string; second: number }>();
    const end = Math.min(this.closing.length, this.closingFrom + SETTLEMENTS_PER_COMMAND);
    for (let i = this.closingFrom; i < end && this.closing[i]!.closeAt <= at; i++) {
      const o = this.closing[i]!;
      const second = Math.floor(o.closeAt / 1000);
      wanted.set(`${o.symbol}|${second}`, { symbol: o.symbol, second });
    }
    return [...wanted.values()];
  }

  /**
   * Settles the orders closed by `at` (at most SETTLEMENTS_PER_COMMAND), each at the given price
   * of its market at its close's second, if one was read within STALE_MS of its close; else refunded.
   */
  settle(at: number, prices: readonly ClosePrice[], out: Array<PulseEvent | TransferEvent>): number {
    const priceAt = new Map<string, ClosePrice>();
    for (const p of prices) priceAt.set(`${p.symbol}|${p.second}`, p);
    let settled = 0;
    while (settled < SETTLEMENTS_PER_COMMAND && this.closingFrom < this.closing.length && this.closing[this.closingFrom]!.closeAt <= at) {
      const o = this.closing[this.closingFrom++]!;
      const quote = priceAt.get(`${o.symbol}|${Math.floor(o.closeAt / 1000)}`);
      const fresh = quote && quote.price > 0n && Math.abs(o.closeAt - quote.readAt) <= STALE_MS ? quote.price : null;
      this.settleOrder(o, fresh, out);
      settled++;
    }
    if (this.closingFrom > 1_024 && this.closingFrom * 2 > this.closing.length) {
      this.closing = this.closing.slice(this.closingFrom);
      this.closingFrom = 0;
    }
    return settled;
  }

  private settleOrder(o: PulseOrder, close: bigint | null, out: Array<PulseEvent | TransferEvent>): void {
    const m = this.markets.get(o.symbol)!;
    const account = this.ledger.account({ owner: o.owner, kind: pulseKind(o.id), asset: m.asset });
    const funding = this.ledger.account({ owner: o.owner, kind: "funding", asset: m.asset });
    const pool = this.ledger.account(pulsePoolAccount(m.asset));
    const outcome = outcomeOf(o, close);
    let paid = 0n;
    if (outcome === "win") {
      const profit = profitOf(o.bet, o.payoutRate);
      if (profit > 0n) out.push(this.move(pool, account, profit));
      paid = o.bet + profit;
      out.push(this.move(account, funding, paid));
    } else if (outcome === "lose") out.push(this.move(account, pool, o.bet));
    else {
      paid = o.bet;
      out.push(this.move(account, funding, o.bet));
    }
    this.remove(o);
    out.push({ type: "pulse.settled", orderId: o.id, memberId: o.owner, symbol: o.symbol, outcome, bet: o.bet, paid, closePrice: close });
  }

  private move(from: ReturnType<Ledger["account"]>, to: ReturnType<Ledger["account"]>, amount: bigint): TransferEvent {
    const moved = this.ledger.moveBetween(this.nextId(), from, to, amount);
    if (typeof moved === "string") throw new Error(`a pulse transfer refused by the ledger (${moved}) after its checks`);
    return moved;
  }

  private add(o: PulseOrder): void {
    this.orders.set(o.id, o);
    let mine = this.ofMember.get(o.owner);
    if (!mine) this.ofMember.set(o.owner, (mine = new Set()));
    mine.add(o);
    const key = `${o.symbol}|${o.direction}`;
    this.exposure.set(key, (this.exposure.get(key) ?? 0n) + profitOf(o.bet, o.payoutRate));
    // Entries come in time order, but durations differ: keep the queue sorted by close, then id.
    let i = this.closing.length;
    while (i > this.closingFrom && before(o, this.closing[i - 1]!)) i--;
    this.closing.splice(i, 0, o);
  }

  private remove(o: PulseOrder): void {
    this.orders.delete(o.id);
    const mine = this.ofMember.get(o.owner);
    mine?.delete(o);
    if (mine?.size === 0) this.ofMember.delete(o.owner);
    const key = `${o.symbol}|${o.direction}`;
    const left = (this.exposure.get(key) ?? 0n) - profitOf(o.bet, o.payoutRate);
    if (left === 0n) this.exposure.delete(key);
    else this.exposure.set(key, left);
  }

  /** Each open order's account holds its bet, and no pulse account holds anything without its order. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    for (const o of this.orders.values()) {
      const id = accountId({ owner: o.owner, kind: pulseKind(o.id), asset: this.markets.get(o.symbol)!.asset });
      const posted = this.ledger.balanceOf(id).posted;
      if (posted !== o.bet) problems.push(`${id} ${posted}, its order bets ${o.bet}`);
    }
    for (const [id, posted] of this.ledger.accounts()) {
      const { kind } = accountOf(id);
      if (posted !== 0n && kind.startsWith("pulse:") && !this.orders.has(kind.slice(6))) problems.push(`${id} ${posted} without an open order`);
    }
    return problems;
  }

  stateHash(): string {
    const hash = createHash("sha256");
    for (const symbol of [...this.markets.keys()].sort()) hash.update(`market ${JSON.stringify(marketState(this.markets.get(symbol)!))};`);
    for (const id of [...this.orders.keys()].sort()) hash.update(`order ${orderLine(this.orders.get(id)!)};`);
    return hash.digest("hex");
  }

  snapshot(): PulseState {
    return { markets: [...this.markets.values()].map(marketState), orders: [...this.orders.values()].map(orderLine).join("\n") };
  }

  restore(state: PulseState): void {
    for (const m of state.markets)
      this.configureMarket({
        symbol: m.symbol,
        asset: m.asset,
        durations: m.durations.map(([seconds, rate]) => ({ seconds, payoutRate: BigInt(rate) })),
        minBet: BigInt(m.minBet),
        maxBet: BigInt(m.maxBet),
        exposureLimit: BigInt(m.exposureLimit),
        enabled: m.enabled,
      });
    for (const line of state.orders === "" ? [] : state.orders.split("\n")) this.restoreOrder(orderFromLine(line));
  }

  restoreOrder(o: PulseOrder): void {
    this.add({ ...o });
  }
}

/** Close order: by close time, then the order made first (the core's ids: shorter is earlier). */
const before = (a: PulseOrder, b: PulseOrder) =>
  a.closeAt !== b.closeAt ? a.closeAt < b.closeAt : a.id.length !== b.id.length ? a.id.length < b.id.length : a.id < b.id;

function marketState(m: PulseMarket): PulseState["markets"][number] {
  return {
    symbol: m.symbol,
    asset: m.asset,
    durations: m.durations.map((d) => [d.seconds, d.payoutRate.toString()] as [number, string]),
    minBet: m.minBet.toString(),
    maxBet: m.maxBet.toString(),
    exposureLimit: m.exposureLimit.toString(),
    enabled: m.enabled,
  };
}

const orderLine = (o: PulseOrder) => [o.id, o.owner, o.symbol, o.direction, o.bet, o.payoutRate, o.entryPrice, o.openAt, o.closeAt].join("\t");

function orderFromLine(line: string): PulseOrder {
  const [id, owner, symbol, direction, bet, rate, entry, openAt, closeAt] = line.split("\t") as string[];
  return {
    id: id!,
    owner: owner!,
    symbol: symbol!,
    direction: direction === "put" ? "put" : "call",
    bet: BigInt(bet!),
    payoutRate: BigInt(rate!),
    entryPrice: BigInt(entry!),
    openAt: Number(openAt),
    closeAt: Number(closeAt),
  };
}
