import { randomBytes, randomInt } from "node:crypto";
import { hash } from "@node-rs/argon2";
import type { Kysely } from "kysely";
import { decimals, fromMinor, toMinor } from "../../protocol/money";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";
import { DEMO_MARKETS } from "./demo-markets";
import { seeded } from "./seeded-random";

/**
 * Simulated liquidity (the embedded default; `SIMULATOR=0` turns it off): bot members place and
 * cancel real orders through the same engine, around a reference price that follows a seeded
 * random walk per symbol, so a fresh install has a live market with depth and trades.
 * Bots cannot log in (random passwords nobody knows) and hold funds like any member.
 */
const BOTS = ["90000001", "90000002", "90000003"];
/** Quotes kept resting per side and symbol: a book with depth to look at and trade against. */
const RESTING_PER_SIDE = 24;
/** Quotes each step adds per side. */
const QUOTES_PER_STEP = 2;

interface SymbolState {
  symbol: string;
  priceScale: number;
  amountScale: number;
  tick: bigint;
  lot: bigint;
  min: bigint;
  /** The reference price in minor units of the price (bigint like every price; only the walk's steps are random floats). */
  reference: bigint;
  /** Order size in parts per hundred of the base notional (BTC trades more than TRX). */
  weight: bigint;
  random: () => number;
  resting: Array<{ orderId: string; bot: string }>;
}


export interface Simulator {
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSimulator(options: {
  db: Kysely<Database>;
  spot: SpotService;
  seed?: number;
  intervalMs?: number;
  log?: { warn: (obj: object, msg: string) => void };
}): Promise<Simulator> {
  const { db, spot } = options;
  const botIds = await ensureBots(db);
  // Orders the bots left open in an earlier run are cancelled: the walk starts afresh.
  const stale = await db.selectFrom("spot_order").select(["order_id", "member_id"]).where("status", "=", "open").where("member_id", "in", botIds).execute();
  for (const order of stale) await spot.cancelOrder(order.member_id, order.order_id);

  const states: SymbolState[] = [];
  for (const [i, m] of DEMO_MARKETS.entries()) {
    const market = spot.markets.get(m.symbol);
    if (!market) continue;
    const last = await db.selectFrom("spot_trade").select("price").where("symbol", "=", m.symbol).orderBy("id", "desc").limit(1).executeTakeFirst();
    states.push({
      symbol: m.symbol,
      priceScale: m.priceScale,
      amountScale: m.amountScale,
      tick: market.config.tickSize,
      lot: market.config.lotSize,
      min: market.config.minQuantity,
      reference: toMinor(last?.price ?? m.start, m.priceScale, "down"),
      weight: BigInt(m.weight),
      random: seeded((options.seed ?? 20261122) + i * 7919),
      resting: [],
    });
  }
  for (const bot of botIds) await fund(spot, bot, states);
  // Fill the books at once (quotes only, no takers), so a fresh start shows depth right away.
  for (let i = 0; i < RESTING_PER_SIDE / QUOTES_PER_STEP; i++) {
    for (const state of states) await step(spot, state, botIds, false).catch(() => {});
  }

  let busy: Promise<void> | null = null;
  const tick = async () => {
    for (const state of states) await step(spot, state, botIds).catch((error) => options.log?.warn({ err: (error as Error).message, symbol: state.symbol }, "simulator step failed"));
  };
  const timer = setInterval(() => {
    busy ??= tick().finally(() => {
      busy = null;
    });
  }, options.intervalMs ?? 1_000);
  timer.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await busy;
    },
  };
}

async function ensureBots(db: Kysely<Database>): Promise<string[]> {
  const ids: string[] = [];
  for (const uid of BOTS) {
    const existing = await db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirst();
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const row = await db
      .insertInto("member")
      .values({
        uid,
        email: `liquidity-${uid}@bots.meridian.invalid`,
        password_hash: await hash(randomBytes(32).toString("base64url")),
        invite_code: `BOT${uid.slice(-5)}`,
        chat_key: randomBytes(16).toString("hex"),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

const PPM = 1_000_000n;
/** USDT per order before the market's weight: 50 to 1,550, in cents. */
const notionalCents = (random: () => number) => BigInt(5_000 + Math.floor(random() * 150_000));

/** Base units (at the market's amount scale) worth `cents` USDT at `price` (minor units at the price scale). */
function baseUnitsFor(s: SymbolState, cents: bigint, price: bigint): bigint {
  return (cents * s.weight * 10n ** BigInt(s.amountScale + s.priceScale)) / (price * 100n * 100n);
}

/** Keeps each bot stocked: about 2 million USDT and its worth of every base coin. */
async function fund(spot: SpotService, bot: string, states: SymbolState[]) {
  const balances = new Map(spot.balances(bot, "spot").map((b) => [b.coin, b.available]));
  const wants: Array<[coin: string, amount: string]> = [["USDT", "2000000"]];
  for (const s of states) {
    const units = (2_000_000n * 10n ** BigInt(s.amountScale + s.priceScale)) / s.reference;
    wants.push([s.symbol.split("/")[0]!, fromMinor(units, s.amountScale)]);
  }
  for (const [coin, amount] of wants) {
    const scale = decimals(amount);
    const have = toMinor(balances.get(coin) ?? "0", scale, "down");
    if (have < toMinor(amount, scale) / 4n) await spot.deposit(bot, coin, "spot", amount, `sim-fund-${bot}-${coin}-${Date.now()}-${randomInt(1e9)}`);
  }
}

async function step(spot: SpotService, s: SymbolState, bots: string[], takers = true) {
  // Random walk: about 0.15 % per step (a Gaussian step in parts per million).
  const gauss = Math.sqrt(-2 * Math.log(s.random() || 1e-9)) * Math.cos(2 * Math.PI * s.random());
  const floor = 100n;
  s.reference += (s.reference * BigInt(Math.round(gauss * 1_500))) / PPM;
  if (s.reference < floor) s.reference = floor;
  const toPrice = (units: bigint) => fromMinor((units / s.tick) * s.tick || s.tick, s.priceScale);
  const toQuantity = (units: bigint) => {
    const lotted = (units / s.lot) * s.lot;
    return fromMinor(lotted < s.min ? s.min : lotted, s.amountScale);
  };
  const maker = bots[0]!;
  const maker2 = bots[1]!;
  const taker = bots[2]!;

  // Refresh the book: cancel the oldest quotes, then quote both sides around the reference.
  while (s.resting.length > RESTING_PER_SIDE * 2) {
    const oldest = s.resting.shift()!;
    await spot.cancelOrder(oldest.bot, oldest.orderId);
  }
  const sides = Array.from({ length: QUOTES_PER_STEP }, () => ["buy", "sell"] as const).flat();
  for (const side of sides) {
    const bot = s.random() < 0.5 ? maker : maker2;
    // Most quotes near the reference, some further out: a book that thins with distance.
    const r = s.random();
    const distance = BigInt(200 + Math.floor(r * r * 8_000)); // parts per million
    const units = (s.reference * (side === "buy" ? PPM - distance : PPM + distance)) / PPM;
    const quantity = toQuantity(baseUnitsFor(s, notionalCents(s.random), s.reference));
    const answer = await spot.placeOrder(bot, { symbol: s.symbol, side, type: "limit", price: toPrice(units), quantity, tif: "GTC" }, null);
    if (answer.orderId && answer.status === "open") s.resting.push({ orderId: answer.orderId, bot });
  }
  // A taker now and then: trades at the best quotes.
  if (takers && s.random() < 0.7) {
    const side = s.random() < 0.5 ? "buy" : "sell";
    const quantity = toQuantity(baseUnitsFor(s, notionalCents(s.random) / 2n, s.reference));
    await spot.placeOrder(taker, { symbol: s.symbol, side, type: "market", quantity, tif: "IOC" }, null);
  }
}
