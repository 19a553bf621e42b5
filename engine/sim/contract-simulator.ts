import { randomBytes } from "node:crypto";
import { fromMinor, toMinor } from "../../protocol/money";
import { contractValue } from "../core/contracts/contract-math";
import type { Perpetual } from "../core/contracts/perpetual";
import type { Side } from "../core/matching/order-book";
import type { ContractService } from "../contracts/contract-service";
import { ladderShape, planRequote, type LadderShape, type Quote } from "./quote-ladder";
import { seeded } from "./seeded-random";

/**
 * Simulated liquidity in the perpetual contracts (issue 30), beside the spot simulator and with
 * its bots: real orders through the same engine. Positions are one-way (decision 045), so one
 * maker bot quotes the bids (opening longs) and another the asks (opening shorts), each on a grid
 * around the contract's mark (quote-ladder.ts, fewer levels than spot); a taker bot now and then
 * takes the touch, opening or closing; when both makers' positions grow past a cap they close
 * part of them against each other at the mark. Bots trade at 5x with large balances, so the
 * mean-reverting walk never liquidates them. The taker guards its position with a take profit and
 * a stop loss 1.5 % either side of the mark (decision 048), so triggers fire now and then.
 */
const LEVELS_PER_SIDE = 12;
const TAKERS_PER_SECOND = 0.3;
const BOT_LEVERAGE = 5;
/** Settlement-asset value of one quote, before the level's depth (USDT; coin-margined in its coin's worth). */
const QUOTE_USDT = [200, 3_000] as const;
/** A maker's position beyond this value (USDT) is partly closed against the other maker. */
const POSITION_CAP_USDT = 400_000n;
const FUND_EVERY_SECONDS = 600;
/** The taker's take profit and stop loss: this far from the mark (per mille). */
const GUARD_PER_MILLE = 15n;

interface BotQuote extends Quote {
  orderId: string;
}

interface ContractState {
  perpetual: Perpetual;
  shape: LadderShape | null;
  random: () => number;
  quotes: BotQuote[];
}

export interface ContractSimulator {
  tick(seconds?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startContractSimulator(options: {
  contracts: ContractService;
  /** The spot simulator's bots: two makers and a taker. */
  bots: readonly string[];
  seed?: number;
  intervalMs?: number;
  timer?: boolean;
  now?: () => number;
  log?: (message: string) => void;
}): Promise<ContractSimulator> {
  const { contracts } = options;
  const now = options.now ?? Date.now;
  const [longMaker, shortMaker, taker] = options.bots as [string, string, string];
  const intervalMs = options.intervalMs ?? 1_000;
  // Orders left open by an earlier run are cancelled: the ladder is laid afresh.
  for (const perpetual of contracts.contracts.values())
    for (const bot of [longMaker, shortMaker, taker]) for (const order of [...perpetual.market.openOrdersOf(bot)]) await contracts.cancelOrder(bot, order.id);
  const states: ContractState[] = [...contracts.contracts.values()].map((perpetual, i) => ({
    perpetual,
    shape: null,
    random: seeded((options.seed ?? 20261129) + i * 7907),
    quotes: [],
  }));
  for (const s of states) for (const bot of [longMaker, shortMaker, taker]) await contracts.setLeverage(bot, s.perpetual.symbol, BOT_LEVERAGE);
  await fund(contracts, [longMaker, shortMaker, taker], now);

  let sinceFunding = 0;
  const tick = async (seconds = intervalMs / 1000) => {
    try {
      const commands: Array<Promise<unknown>> = [];
      for (const s of states) {
        const mark = s.perpetual.mark;
        if (mark === null || s.perpetual.halted) continue;
        s.shape ??= ladderShape(mark, s.perpetual.config.tickSize, LEVELS_PER_SIDE);
        requote(contracts, s, mark, longMaker, shortMaker, commands);
        if (s.random() < 1 - Math.exp(-TAKERS_PER_SECOND * seconds)) takeTouch(contracts, s, taker, commands);
        guard(contracts, s, taker, mark, commands);
        net(contracts, s, mark, longMaker, shortMaker, commands);
      }
      await Promise.all(commands);
      sinceFunding += seconds;
      if (sinceFunding >= FUND_EVERY_SECONDS) {
        sinceFunding = 0;
        await fund(contracts, [longMaker, shortMaker, taker], now);
      }
    } catch (error) {
      options.log?.(`contract simulator tick failed: ${(error as Error).message}`);
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
    async stop() {
      if (timer) clearInterval(timer);
      await busy;
    },
  };
}

/** Contracts worth about `usdt` at `price` (at least one). */
function contractsFor(s: ContractState, usdt: number, price: bigint): bigint {
  const { spec } = s.perpetual.config;
  const one = contractValue(spec, 1n, price);
  // Linear: the value is USDT; inverse: the coin, so a contract is its face value in dollars.
  const perContract = spec.kind === "linear" ? Number(one) / 10 ** spec.settleScale : Number(spec.multiplier);
  const qty = BigInt(Math.max(1, Math.floor(usdt / perContract)));
  return qty > s.perpetual.config.maxQty ? s.perpetual.config.maxQty : qty;
}

function requote(contracts: ContractService, s: ContractState, mark: bigint, longMaker: string, shortMaker: string, commands: Array<Promise<unknown>>) {
  const { market, symbol, config } = s.perpetual;
  s.quotes = s.quotes.filter((q) => market.openOrder(q.orderId) !== undefined);
  const plan = planRequote(s.quotes, mark, s.shape!);
  for (const q of plan.cancel) commands.push(contracts.cancelOrder(q.side === "buy" ? longMaker : shortMaker, q.orderId));
  const cancelled = new Set(plan.cancel);
  s.quotes = s.quotes.filter((q) => !cancelled.has(q));
  for (const p of plan.place) {
    const bot = p.side === "buy" ? longMaker : shortMaker;
    const usdt = (QUOTE_USDT[0] + s.random() * (QUOTE_USDT[1] - QUOTE_USDT[0])) * (1 + p.level / 6);
    const quantity = contractsFor(s, usdt, p.price).toString();
    const placed = contracts.placeOrder(
      bot,
      { symbol, side: p.side, action: "open", type: "limit", price: fromMinor(p.price, config.spec.priceScale), quantity, tif: "POST_ONLY" },
      null,
    );
    commands.push(
      placed.then((answer) => {
        if (answer.orderId && answer.status === "open") s.quotes.push({ orderId: answer.orderId, side: p.side, price: p.price });
      }),
    );
  }
}

/** The taker takes the touch (IOC at the best price, no more than rests there): it opens when flat, else adds or closes. */
function takeTouch(contracts: ContractService, s: ContractState, taker: string, commands: Array<Promise<unknown>>) {
  const { market, symbol, config } = s.perpetual;
  const position = market.position(taker);
  const side: Side = s.random() < 0.5 ? "buy" : "sell";
  const closes = position !== undefined && (position.side === "long") === (side === "sell");
  const { bids, asks } = market.depth(1);
  const touch = side === "buy" ? asks[0] : bids[0];
  if (!touch) return;
  const [price, resting] = touch;
  let qty = contractsFor(s, QUOTE_USDT[0] + s.random() * QUOTE_USDT[1], price);
  if (qty > resting) qty = resting;
  if (closes && qty > position.qty) qty = position.qty;
  commands.push(
    contracts.placeOrder(
      taker,
      { symbol, side, action: closes ? "close" : "open", type: "limit", price: fromMinor(price, config.spec.priceScale), quantity: qty.toString(), tif: "IOC" },
      null,
    ),
  );
}

/** The taker's position without a take profit and stop loss gets them, 1.5 % either side of the mark. */
function guard(contracts: ContractService, s: ContractState, taker: string, mark: bigint, commands: Array<Promise<unknown>>) {
  const { market, symbol, config } = s.perpetual;
  const position = market.position(taker);
  if (!position || market.positionStopsOf(taker)) return;
  const step = (mark * GUARD_PER_MILLE) / 1000n;
  const onTick = (price: bigint) => fromMinor((price / config.tickSize) * config.tickSize, config.spec.priceScale);
  const [up, down] = [onTick(mark + step), onTick(mark - step)];
  const [takeProfit, stopLoss] = position.side === "long" ? [up, down] : [down, up];
  commands.push(contracts.setPositionStops(taker, { symbol, triggerBy: "mark", takeProfit, stopLoss }, null));
}

/** Both makers past the cap: the long one offers a part of its position at the mark, and the short one takes it. */
function net(contracts: ContractService, s: ContractState, mark: bigint, longMaker: string, shortMaker: string, commands: Array<Promise<unknown>>) {
  const { market, symbol, config } = s.perpetual;
  const long = market.position(longMaker);
  const short = market.position(shortMaker);
  if (!long || !short || long.side !== "long" || short.side !== "short") return;
  const { spec } = config;
  const cap = spec.kind === "linear" ? POSITION_CAP_USDT * 10n ** BigInt(spec.settleScale) : null;
  const value = contractValue(spec, long.qty < short.qty ? long.qty : short.qty, mark);
  const over = cap === null ? (long.qty < short.qty ? long.qty : short.qty) * spec.multiplier > POSITION_CAP_USDT : value > cap;
  if (!over) return;
  const qty = (long.qty < short.qty ? long.qty : short.qty) / 2n;
  if (qty < 1n) return;
  const price = fromMinor((mark / config.tickSize) * config.tickSize, spec.priceScale);
  const offer = contracts.placeOrder(longMaker, { symbol, side: "sell", action: "close", type: "limit", price, quantity: qty.toString(), tif: "GTC" }, null);
  commands.push(
    offer.then(async (answer) => {
      await contracts.placeOrder(shortMaker, { symbol, side: "buy", action: "close", type: "limit", price, quantity: qty.toString(), tif: "IOC" }, null);
      if (answer.orderId) await contracts.cancelOrder(longMaker, answer.orderId);
    }),
  );
}

/** Keeps each bot's contract accounts stocked: 5 million USDT, 100 BTC, 2,000 ETH (topped up below a quarter). */
async function fund(contracts: ContractService, bots: string[], now: () => number) {
  const funds = contracts.durable.funds;
  const wants: Array<[string, string]> = [
    ["USDT", "5000000"],
    ["BTC", "100"],
    ["ETH", "2000"],
  ];
  const deposits: Array<Promise<boolean>> = [];
  for (const bot of bots) {
    const balances = new Map(funds.balances(bot, "contract").map((b) => [b.coin, b.available]));
    for (const [coin, amount] of wants) {
      const have = toMinor(balances.get(coin) ?? "0", 8, "down");
      if (have < toMinor(amount, 8) / 4n)
        deposits.push(funds.deposit(bot, coin, "contract", amount, `sim-contract-${bot}-${coin}-${now()}-${randomBytes(4).toString("hex")}`));
    }
  }
  await Promise.all(deposits);
}
