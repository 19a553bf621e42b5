import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { decimals, fromMinor, toMinor } from "../../protocol/money";
import type { Side } from "../core/matching/order-book";
import type { SpotMarket } from "../core/spot/spot-market";
import { createMember, memberOfAccount } from "../members/new-member";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";
import { DEMO_MARKETS } from "./demo-markets";
import { ladderShape, planRequote, type LadderShape, type Quote } from "./quote-ladder";
import { ReferenceWalk } from "./reference-walk";
import { seeded } from "./seeded-random";

/**
 * Simulated liquidity (the embedded default; `SIMULATOR=0` turns it off): bot members place and
 * cancel real orders through the same engine, so a fresh install has a live market with depth
 * and trades. Each tick, per demo market:
 * - the reference price takes a step of its mean-reverting walk (reference-walk.ts);
 * - two maker bots keep a ladder of post-only quotes on a grid around it (quote-ladder.ts): at
 *   least 20 levels a side, a spread of one to two grid steps, changed only where it moved;
 * - now and then a taker bot takes the touch: a limit IOC at the best price for no more than
 *   rests there, so every print is inside the spread and consecutive prints stay a spread apart.
 * Bots cannot log in (random passwords nobody knows) and hold funds like any member. All of a
 * tick's commands are applied at once and commit together (one group commit, not one per order).
 */
const BOTS = ["90000001", "90000002", "90000003"];
/** Bots are known by these addresses (not by UID alone, which registration may also draw). */
const botEmail = (uid: string) => `liquidity-${uid}@bots.meridian.invalid`;
/** Takers per second and market (a Poisson rate): the tape prints a few times a second over the six markets. */
export const TAKERS_PER_SECOND = 0.4;
/** USDT per quote before the market's weight and the level's depth: 50 to 1,550, in cents (a taker takes half). */
const NOTIONAL_CENTS_MIN = 5_000;
const NOTIONAL_CENTS_SPREAD = 150_000;
/** What a taker trades on average before the market's weight, in USDT (for the drawn history's volumes). */
export const MEAN_TAKER_USDT = (NOTIONAL_CENTS_MIN + NOTIONAL_CENTS_SPREAD / 2) / 2 / 100;
/** Simulated seconds between two checks of the bots' balances. */
const FUND_EVERY_SECONDS = 600;

interface BotQuote extends Quote {
  orderId: string;
  bot: string;
}

interface SymbolState {
  market: SpotMarket;
  symbol: string;
  priceScale: number;
  amountScale: number;
  lot: bigint;
  min: bigint;
  walk: ReferenceWalk;
  shape: LadderShape;
  /** Order size in parts per hundred of the base notional (BTC trades more than TRX). */
  weight: bigint;
  random: () => number;
  quotes: BotQuote[];
}

export interface Simulator {
  /** One step of `seconds` simulated seconds (default: the timer's interval); resolves once its orders are committed. */
  tick(seconds?: number): Promise<void>;
  stop(): Promise<void>;
  /** The reference price of a symbol now (minor units at its price scale). */
  reference(symbol: string): bigint | undefined;
  /**
   * Moves a market's reference to `price` (minor units) at once: the makers quote around it and
   * a taker trades at the new touch, so the last price (and the contracts' index) follows now.
   * Undefined for a market it does not simulate.
   */
  moveReference(symbol: string, price: bigint): Promise<bigint | undefined>;
  /** The bots' member ids: the simulator's own members, the only ones whose history may be pruned. */
  readonly botIds: readonly string[];
}

export interface SimulatorOptions {
  db: Kysely<Database>;
  spot: SpotService;
  seed?: number;
  /** Milliseconds between ticks (a tick is this many simulated seconds). */
  intervalMs?: number;
  /** Tick on a timer (default); false: the caller calls `tick` (tests, the sim bench on a simulated clock). */
  timer?: boolean;
  /** The clock (deposit references); default Date.now. */
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const { db, spot } = options;
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? 1_000;
  const botIds = await ensureBots(db, now());
  const [maker, maker2, taker] = botIds as [string, string, string];
  // Orders the bots left open in an earlier run are cancelled: the ladder is laid afresh.
  const stale = await db.selectFrom("spot_order").select(["order_id", "member_id"]).where("status", "=", "open").where("member_id", "in", botIds).execute();
  await Promise.all(stale.map((order) => spot.cancelOrder(order.member_id, order.order_id)));

  const states: SymbolState[] = [];
  for (const [i, m] of DEMO_MARKETS.entries()) {
    const market = spot.markets.get(m.symbol);
    if (!market) continue;
    const anchor = toMinor(m.start, m.priceScale);
    const random = seeded((options.seed ?? 20261122) + i * 7919);
    states.push({
      market,
      symbol: m.symbol,
      priceScale: m.priceScale,
      amountScale: m.amountScale,
      lot: market.config.lotSize,
      min: market.config.minQuantity,
      walk: new ReferenceWalk({
        anchor,
        start: await startPrice(db, m.symbol, m.priceScale, anchor),
        volatilityPerDay: m.volatilityPerDay,
        tick: market.config.tickSize,
        random,
      }),
      shape: ladderShape(anchor, market.config.tickSize),
      weight: BigInt(m.weight),
      random,
      quotes: [],
    });
  }
  await fund(spot, botIds, states, now);

  const quoteAll = (seconds: number, takers: boolean) => {
    const commands: Array<Promise<unknown>> = [];
    for (const s of states) {
      if (seconds > 0) s.walk.step(seconds);
      requote(spot, s, [maker, maker2], commands);
      if (takers && s.random() < 1 - Math.exp(-TAKERS_PER_SECOND * seconds)) takeTouch(spot, s, taker, commands);
    }
    return Promise.all(commands);
  };
  // Lay the books at once (quotes only), so a fresh start shows depth right away.
  await quoteAll(0, false);

  let sinceFunding = 0;
  const tick = async (seconds = intervalMs / 1000) => {
    try {
      await quoteAll(seconds, true);
      sinceFunding += seconds;
      if (sinceFunding >= FUND_EVERY_SECONDS) {
        sinceFunding = 0;
        await fund(spot, botIds, states, now);
      }
    } catch (error) {
      options.log?.warn({ err: (error as Error).message }, "simulator tick failed");
    }
  };
  let busy: Promise<void> | null = null;
  const timer =
    options.timer === false
      ? null
      : setInterval(() => {
          busy ??= tick().finally(() => {
            busy = null;
          });
        }, intervalMs);
  timer?.unref();
  return {
    tick,
    reference: (symbol) => states.find((s) => s.symbol === symbol)?.walk.price,
    async moveReference(symbol, price) {
      const s = states.find((one) => one.symbol === symbol);
      if (!s) return undefined;
      // After the tick under way, so its quotes do not land on the moved ones.
      await busy;
      const moved = s.walk.moveTo(price);
      const commands: Array<Promise<unknown>> = [];
      requote(spot, s, [maker, maker2], commands);
      await Promise.all(commands);
      const trades: Array<Promise<unknown>> = [];
      takeTouch(spot, s, taker, trades);
      await Promise.all(trades);
      return moved;
    },
    botIds,
    async stop() {
      if (timer) clearInterval(timer);
      await busy;
    },
  };
}

/**
 * Where the walk starts: the last close the charts show (the drawn history's on a fresh install,
 * the live candles' after a restart), so live candles continue them without a jump; else the
 * last trade; else the anchor.
 */
async function startPrice(db: Kysely<Database>, symbol: string, priceScale: number, anchor: bigint): Promise<bigint> {
  const candle = await db
    .selectFrom("spot_kline")
    .select("close")
    .where("symbol", "=", symbol)
    .where("period", "=", "1m")
    .orderBy("open_time", "desc")
    .limit(1)
    .executeTakeFirst();
  const trade = candle
    ? undefined
    : await db.selectFrom("spot_trade").select("price").where("symbol", "=", symbol).orderBy("id", "desc").limit(1).executeTakeFirst();
  const text = candle?.close ?? trade?.price;
  return text === undefined ? anchor : toMinor(String(text), priceScale, "down");
}

/** The bots, created on first start: members nobody can log in as (their ids, in a fixed order). */
export async function ensureBots(db: Kysely<Database>, now: number): Promise<string[]> {
  const ids: string[] = [];
  for (const uid of BOTS) {
    const account = { email: botEmail(uid) };
    const bot = (await memberOfAccount(db, account)) ?? (await createMember(db, { account, password: null, uid, inviteCode: `BOT${uid.slice(-5)}` }, now));
    ids.push(bot.id);
  }
  return ids;
}

const notionalCents = (random: () => number) => BigInt(NOTIONAL_CENTS_MIN + Math.floor(random() * NOTIONAL_CENTS_SPREAD));

/** Base units (at the market's amount scale) worth `cents` USDT at `price` (minor units at the price scale), on the lot, at least the minimum. */
function quantityFor(s: SymbolState, cents: bigint, price: bigint): bigint {
  const units = (cents * s.weight * 10n ** BigInt(s.amountScale + s.priceScale)) / (price * 100n * 100n);
  const lotted = (units / s.lot) * s.lot;
  return lotted < s.min ? s.min : lotted;
}

/** Keeps each bot stocked: about 2 million USDT and its worth of every base coin (topped up below a quarter). */
async function fund(spot: SpotService, bots: string[], states: SymbolState[], now: () => number) {
  const deposits: Array<Promise<boolean>> = [];
  for (const bot of bots) {
    const balances = new Map(spot.durable.funds.balances(bot, "spot").map((b) => [b.coin, b.available]));
    const wants: Array<[coin: string, amount: string]> = [["USDT", "2000000"]];
    for (const s of states) {
      const units = (2_000_000n * 10n ** BigInt(s.amountScale + s.priceScale)) / s.walk.price;
      wants.push([s.symbol.split("/")[0]!, fromMinor(units, s.amountScale)]);
    }
    for (const [coin, amount] of wants) {
      const scale = decimals(amount);
      const have = toMinor(balances.get(coin) ?? "0", scale, "down");
      if (have < toMinor(amount, scale) / 4n)
        deposits.push(spot.durable.funds.deposit(bot, coin, "spot", amount, `sim-fund-${bot}-${coin}-${now()}-${randomBytes(4).toString("hex")}`));
    }
  }
  await Promise.all(deposits);
}

/**
 * Brings the makers' ladder to the reference. Commands are applied as they are called (the core
 * is synchronous) and their promises gathered: the tick awaits them all in one commit.
 */
function requote(spot: SpotService, s: SymbolState, makers: string[], commands: Array<Promise<unknown>>) {
  // Quotes that traded away (a taker, or a member) are no longer on the book.
  s.quotes = s.quotes.filter((q) => s.market.book.order(q.orderId) !== undefined);
  const plan = planRequote(s.quotes, s.walk.price, s.shape);
  for (const q of plan.cancel) commands.push(spot.cancelOrder(q.bot, q.orderId));
  const cancelled = new Set(plan.cancel);
  s.quotes = s.quotes.filter((q) => !cancelled.has(q));
  for (const p of plan.place) {
    const bot = makers[s.random() < 0.5 ? 0 : 1]!;
    // Deeper levels rest more, as on a real book.
    const cents = (notionalCents(s.random) * BigInt(8 + p.level)) / 8n;
    const quantity = fromMinor(quantityFor(s, cents, p.price), s.amountScale);
    // Post-only: a maker never takes (a member's order in the way just leaves that price empty).
    const placed = spot.placeOrder(
      bot,
      { symbol: s.symbol, side: p.side, type: "limit", price: fromMinor(p.price, s.priceScale), quantity, tif: "POST_ONLY" },
      null,
    );
    commands.push(
      placed.then((answer) => {
        if (answer.orderId && answer.status === "open") s.quotes.push({ orderId: answer.orderId, bot, side: p.side, price: p.price });
      }),
    );
  }
}

/** A taker takes the touch: a limit IOC at the best opposite price, for no more than rests there. */
function takeTouch(spot: SpotService, s: SymbolState, taker: string, commands: Array<Promise<unknown>>) {
  const side: Side = s.random() < 0.5 ? "buy" : "sell";
  const { bids, asks } = s.market.book.depth(1);
  const touch = side === "buy" ? asks[0] : bids[0];
  if (!touch) return;
  const [price, resting] = touch;
  const wanted = quantityFor(s, notionalCents(s.random) / 2n, price);
  const quantity = wanted < resting ? wanted : (resting / s.lot) * s.lot;
  if (quantity < s.min) return;
  commands.push(
    spot.placeOrder(
      taker,
      { symbol: s.symbol, side, type: "limit", price: fromMinor(price, s.priceScale), quantity: fromMinor(quantity, s.amountScale), tif: "IOC" },
      null,
    ),
  );
}
