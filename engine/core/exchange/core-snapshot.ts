import { accountOf, type AccountKind, type LedgerHold } from "../ledger/ledger";
import { holdOf } from "../spot/spot-market";
import type { Side, TimeInForce } from "../matching/order-book";
import { TabCursor, eachTabLine } from "../tab-lines";
import type { OpenWithdrawalState } from "../wallet/withdrawals";
import type { ExchangeCore } from "./exchange-core";
import { configOfPlain, plainConfig, type PerpetualConfigPlain, type PerpetualState } from "../contracts/perpetual";
import type { MarginState } from "../margin/margin";
import type { PledgeState } from "../loans/pledge-loans";
import type { StakingState } from "../earn/staking";
import type { SubscriptionsState } from "../earn/subscriptions";

/**
 * The whole core as plain data: what a snapshot stores and a start loads instead of rebuilding
 * from the query tables (decision 017). Built for a million orders: the many things (book
 * orders, balances, holds) travel as text blocks of tab-separated lines, not one object each;
 * integers (minor units) are decimal texts. Orders are in the order that rebuilds the same
 * queues (level by level, oldest first), each with what is left of its hold (`hold:<id>`, on
 * the member's spot account of the asset it pays with), so those holds are not listed again.
 */
export interface CoreSnapshot {
  version: 2;
  /** The last command it includes: the journal's tail starts after it. */
  seq: number;
  assets: Array<[code: string, scale: number]>;
  markets: MarketSnapshot[];
  /** Lines of `account id, posted, held`. */
  accounts: string;
  /** Lines of `id, account id, asset, remaining`: the holds not folded into a book order or a stop. */
  holds: string;
  /** Lines of `id, member id, asset, amount, fee, state`: open withdrawals (their holds are in `holds`); absent in older snapshots. */
  withdrawals?: string;
  /** Perpetual contracts: configuration and state (their orders' holds are in `holds`); absent in older snapshots. */
  contracts?: Array<{ config: PerpetualConfigPlain; state: PerpetualState }>;
  /** Margin: lending pools, margin pairs, open loans, isolated leverages, warned accounts (decision 050); absent in older snapshots. */
  margin?: MarginState;
  /** Crypto loans: products and open loans (decision 051); absent in older snapshots and without products. */
  pledge?: PledgeState;
  /** Staking: products and running stakes (decision 052); absent in older snapshots and without products. */
  staking?: StakingState;
  /** Subscriptions: projects, open subscriptions and return applications (decision 053); absent in older snapshots and without projects. */
  subscriptions?: SubscriptionsState;
}

export interface MarketSnapshot {
  symbol: string;
  base: string;
  quote: string;
  priceScale: number;
  amountScale: number;
  tickSize: string;
  lotSize: string;
  minQuantity: string;
  makerFeeBps: string;
  takerFeeBps: string;
  halted: boolean;
  lastPrice: string | null;
  /**
   * Lines of `order id, member id, b|s, price, remaining, hold remaining` (`-`: no hold), and for
   * an order placed from a margin account a seventh field, the account's kind (decision 050).
   */
  orders: string;
  /** Waiting stop orders in placement order (few), each with its hold's remaining. */
  stops: StopSnapshot[];
}

export interface StopSnapshot {
  orderId: string;
  memberId: string;
  side: Side;
  type: "limit" | "market";
  tif: TimeInForce;
  price?: string;
  quantity?: string;
  money?: string;
  stopProfitPrice?: string;
  stopLossPrice?: string;
  hold: string | null;
  /** A margin account's kind, when it waits to trade from one. */
  account?: AccountKind;
}

const text = (v: bigint | undefined) => (v === undefined ? undefined : v.toString());
const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));

export function takeSnapshot(core: ExchangeCore, seq: number): CoreSnapshot {
  const ledger = core.ledger;
  const holdText = (remaining: bigint) => (remaining === 0n ? "-" : remaining.toString());
  const markets: MarketSnapshot[] = [];
  for (const market of core.markets.values()) {
    const c = market.config;
    const lines: string[] = [];
    for (const o of market.book.resting()) {
      const hold = o.ref as LedgerHold | undefined;
      const line = `${o.id}\t${o.memberId}\t${o.side === "buy" ? "b" : "s"}\t${o.price}\t${o.remaining}\t${holdText(hold?.remaining ?? 0n)}`;
      // A margin order's hold is on a margin account: its kind, a field only those lines carry.
      const kind = hold && !hold.account.id.includes("/spot/") ? accountOf(hold.account.id).kind : null;
      lines.push(kind === null ? line : `${line}\t${kind}`);
    }
    markets.push({
      symbol: c.symbol,
      base: c.base,
      quote: c.quote,
      priceScale: c.priceScale,
      amountScale: c.amountScale,
      tickSize: c.tickSize.toString(),
      lotSize: c.lotSize.toString(),
      minQuantity: c.minQuantity.toString(),
      makerFeeBps: c.makerFeeBps.toString(),
      takerFeeBps: c.takerFeeBps.toString(),
      halted: market.isHalted,
      lastPrice: market.lastPrice === undefined ? null : market.lastPrice.toString(),
      orders: lines.join("\n"),
      stops: [...market.waitingOrders()].map((s) => {
        const hold = holdText(ledger.holdRemaining(holdOf(s.orderId)));
        return {
          orderId: s.orderId,
          memberId: s.memberId,
          side: s.side,
          type: s.type,
          tif: s.tif,
          price: text(s.price),
          quantity: text(s.quantity),
          money: text(s.money),
          stopProfitPrice: text(s.stopProfitPrice),
          stopLossPrice: text(s.stopLossPrice),
          hold: hold === "-" ? null : hold,
          ...(s.account !== undefined && s.account !== "spot" ? { account: s.account } : {}),
        };
      }),
    });
  }
  const accounts: string[] = [];
  for (const [key, posted, held] of ledger.accounts()) accounts.push(`${key}\t${posted}\t${held}`);
  // An order's hold is kept with the order and written on its line; the ledger's own holds
  // (withdrawals in review, and any hold no open order claimed at a start from the tables) here.
  const holds: string[] = [];
  for (const [id, account, asset, remaining] of ledger.openHolds()) holds.push(`${id}\t${account}\t${asset}\t${remaining}`);
  const withdrawals = [...core.withdrawals.values()].map((w) => `${w.id}\t${w.memberId}\t${w.asset}\t${w.amount}\t${w.fee}\t${w.state}`);
  return {
    version: 2,
    seq,
    assets: [...core.assetScales],
    markets,
    accounts: accounts.join("\n"),
    holds: holds.join("\n"),
    ...(withdrawals.length > 0 ? { withdrawals: withdrawals.join("\n") } : {}),
    ...(core.margin.pools.size > 0 || core.margin.pairs.size > 0 ? { margin: core.margin.snapshot() } : {}),
    ...(core.pledges.products.size > 0 ? { pledge: core.pledges.snapshot() } : {}),
    ...(core.staking.products.size > 0 ? { staking: core.staking.snapshot() } : {}),
    ...(core.subscriptions.projects.size > 0 ? { subscriptions: core.subscriptions.snapshot() } : {}),
    ...(core.contracts.size > 0 ? { contracts: [...core.contracts.values()].map((p) => ({ config: plainConfig(p.config), state: p.snapshot() })) } : {}),
  };
}

/** Lines in a block (~15 ms for a million): the book's index is sized once for them. */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let count = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

export function restoreSnapshot(core: ExchangeCore, s: CoreSnapshot): void {
  const steps = restoreSteps(core, s);
  while (!steps.next().done);
}

/** Resting orders restored between two turns of the event loop by `restoreSnapshotInTurns` (~20 ms of work). */
const ORDERS_PER_TURN = 16_384;

/**
 * The same restore, giving the event loop a turn every ORDERS_PER_TURN orders: an engine's start
 * restores its snapshot while its store opens and migrates (decision 017, step 17), and the
 * database's answers are taken between two parts instead of after the whole restore.
 */
export async function restoreSnapshotInTurns(core: ExchangeCore, s: CoreSnapshot): Promise<void> {
  const steps = restoreSteps(core, s);
  while (!steps.next().done) await new Promise((resolve) => setImmediate(resolve));
}

function* restoreSteps(core: ExchangeCore, s: CoreSnapshot): Generator<void, void, void> {
  /** Resting orders restored so far, over every market. */
  let restored = 0;
  if (s.version !== 2) throw new Error(`snapshot version ${String(s.version)} is not known`);
  const ledger = core.ledger;
  for (const [code, scale] of s.assets) core.listAsset(code, scale);
  eachTabLine(s.accounts, 3, ([key, posted, held]) => ledger.restoreBalance(key!, BigInt(posted!), BigInt(held!)));
  eachTabLine(s.holds, 4, ([id, account, asset, remaining]) => ledger.restoreHold(id!, account!, asset!, BigInt(remaining!)));
  for (const m of s.markets) {
    const market = core.openMarket(
      {
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        priceScale: m.priceScale,
        amountScale: m.amountScale,
        baseAssetScale: core.scaleOf(m.base),
        quoteAssetScale: core.scaleOf(m.quote),
        tickSize: BigInt(m.tickSize),
        lotSize: BigInt(m.lotSize),
        minQuantity: BigInt(m.minQuantity),
        makerFeeBps: BigInt(m.makerFeeBps),
        takerFeeBps: BigInt(m.takerFeeBps),
      },
      m.halted,
    );
    market.restoreLastPrice(m.lastPrice === null ? undefined : BigInt(m.lastPrice));
    // A million lines, read in place (TabCursor); the orders of a level share one price bigint.
    // The market restores each order's hold on the member's account record it keeps.
    market.book.reserve(lineCount(m.orders));
    const line = new TabCursor(m.orders);
    let price: bigint | undefined;
    while (line.next()) {
      if (++restored % ORDERS_PER_TURN === 0) yield;
      const orderId = line.string();
      const memberId = line.string();
      const side = line.is("b") ? "buy" : "sell";
      price = line.bigint(price);
      const remaining = line.bigint();
      const hold = line.bigintOrDash();
      market.restoreWithHold(orderId, memberId, side, price, remaining, hold, line.more() ? (line.string() as AccountKind) : undefined);
    }
    for (const st of m.stops) {
      core.restoreStop(
        m.symbol,
        {
          orderId: st.orderId,
          memberId: st.memberId,
          side: st.side,
          type: st.type,
          tif: st.tif,
          price: big(st.price),
          quantity: big(st.quantity),
          money: big(st.money),
          stopProfitPrice: big(st.stopProfitPrice),
          stopLossPrice: big(st.stopLossPrice),
          ...(st.account !== undefined ? { account: st.account } : {}),
        },
        st.hold === null ? 0n : BigInt(st.hold),
      );
    }
  }
  eachTabLine(s.withdrawals ?? "", 6, ([id, memberId, asset, amount, fee, state]) =>
    core.withdrawals.restore({ id: id!, memberId: memberId!, asset: asset!, amount: BigInt(amount!), fee: BigInt(fee!), state: state as OpenWithdrawalState }),
  );
  for (const contract of s.contracts ?? []) core.openContract(configOfPlain(contract.config)).restore(contract.state);
  if (s.margin) core.margin.restore(s.margin);
  if (s.pledge) core.pledges.restore(s.pledge);
  if (s.staking) core.staking.restore(s.staking);
  if (s.subscriptions) core.subscriptions.restore(s.subscriptions);
  core.restoreSeq(s.seq);
}
