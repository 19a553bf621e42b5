import * as z from "zod";
import { COIN_SOURCE } from "./fields";
import { marketItemSchema } from "./market";
import { candleSchema, depthSchema, KLINE_PERIODS, publicTradeSchema, type KlinePeriod } from "./endpoints/market-data";
import { WITHDRAWAL_STATES } from "./endpoints/withdrawals";
import { CONTRACT_PRICE_SOURCES, contractStateSchema, type ContractPriceSource } from "./endpoints/contracts";
import { unsignedDecimalString } from "./money";

/**
 * socket.io topics (spec §7 "Real-time"): one registry of every topic, with its name, who may
 * follow it and the schema of what it carries. The engine's subscription check and its typed
 * `publish`, and the web's typed `useTopic`, derive from it. A client emits `subscribe` with a
 * topic (public) or `{ topic, ticket }` (a member's), and `unsubscribe`. Every push is the event
 * `message` with `{ topic, data }`.
 */
export const topicSymbol = (symbol: string) => symbol.replace("/", "_");

/** `BTC_USDT`: a symbol as a topic spells it. */
const SYMBOL = `${COIN_SOURCE}_${COIN_SOURCE}`;

interface TopicDefinition<A extends unknown[], P extends z.ZodType> {
  /** `public`: anyone; `member`: only with a ticket issued to the member the name carries. */
  access: "public" | "member";
  /** The names it has, as a pattern; a member topic captures the member's id as group 1. */
  pattern: string;
  name: (...args: A) => string;
  payload: P;
}

const define = <A extends unknown[], P extends z.ZodType>(topic: TopicDefinition<A, P>) => topic;

/**
 * A deposit credited or a withdrawal's new state: what the member's `refresh` push names and
 * their e-mail tells (decision 030). Amounts are exact decimals; a withdrawal's `amount` is what
 * arrives, its `fee` comes on top.
 */
export const walletNoticeSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("deposit"),
    id: z.string(),
    coin: z.string(),
    amount: unsignedDecimalString,
    network: z.string(),
    txid: z.string(),
  }),
  z.object({
    kind: z.literal("withdrawal"),
    id: z.string(),
    coin: z.string(),
    amount: unsignedDecimalString,
    fee: unsignedDecimalString,
    state: z.enum(WITHDRAWAL_STATES),
    /** Where it goes (the request's notice only). */
    network: z.string().optional(),
    address: z.string().optional(),
    memo: z.string().optional(),
    /** The operator's reason for a rejection. */
    reason: z.string().optional(),
    /** The chain transaction (from the broadcast). */
    txid: z.string().optional(),
  }),
]);
export type WalletNotice = z.infer<typeof walletNoticeSchema>;

export const TOPICS = {
  /** Tickers of every spot symbol, about every 2 s while something changed. */
  index: define({ access: "public", pattern: "index", name: () => "index", payload: z.array(marketItemSchema) }),
  all_symbol_detail: define({ access: "public", pattern: "all_symbol_detail", name: () => "all_symbol_detail", payload: z.array(marketItemSchema) }),
  kline: define({
    access: "public",
    pattern: `kline_${SYMBOL}_(?:${KLINE_PERIODS.join("|")})`,
    name: (symbol: string, period: KlinePeriod) => `kline_${topicSymbol(symbol)}_${period}`,
    payload: z.object({ symbol: z.string(), period: z.enum(KLINE_PERIODS), candle: candleSchema }),
  }),
  /** A full snapshot of the top levels; a client keeps the highest `seq` it has seen. */
  depth: define({ access: "public", pattern: `depth_${SYMBOL}`, name: (symbol: string) => `depth_${topicSymbol(symbol)}`, payload: depthSchema }),
  trade: define({
    access: "public",
    pattern: `trade_${SYMBOL}`,
    name: (symbol: string) => `trade_${topicSymbol(symbol)}`,
    payload: z.object({ symbol: z.string(), trades: z.array(publicTradeSchema) }),
  }),
  /** A perpetual contract's book, trades and prices (issue 30): named apart from the spot market of the same pair. */
  contract_depth: define({
    access: "public",
    pattern: `contract_depth_${SYMBOL}`,
    name: (symbol: string) => `contract_depth_${topicSymbol(symbol)}`,
    payload: depthSchema,
  }),
  contract_trade: define({
    access: "public",
    pattern: `contract_trade_${SYMBOL}`,
    name: (symbol: string) => `contract_trade_${topicSymbol(symbol)}`,
    payload: z.object({ symbol: z.string(), trades: z.array(publicTradeSchema) }),
  }),
  /** Mark, index, last price, funding rate and time, open interest: at most once a second, when one moved. */
  contract_state: define({
    access: "public",
    pattern: `contract_state_${SYMBOL}`,
    name: (symbol: string) => `contract_state_${topicSymbol(symbol)}`,
    payload: contractStateSchema,
  }),
  /** A contract's current candle of its last price or of its mark price, in one period: at most every 250 ms, when it moved. */
  contract_kline: define({
    access: "public",
    pattern: `contract_kline_${SYMBOL}_(?:last|mark)_(?:${KLINE_PERIODS.join("|")})`,
    name: (symbol: string, source: ContractPriceSource, period: KlinePeriod) => `contract_kline_${topicSymbol(symbol)}_${source}_${period}`,
    payload: z.object({ symbol: z.string(), source: z.enum(CONTRACT_PRICE_SOURCES), period: z.enum(KLINE_PERIODS), candle: candleSchema }),
  }),
  /**
   * Something of the member's changed: reload orders and balances (of `symbols`); `wallet`, when
   * there, names the deposits credited and the withdrawals moved (the same events as their mails);
   * `notices`: the member has new notifications (decision 031), to be read from `coin/notice/unread`
   * (the push carries no text: the reader's language is the page's). A push that only says so has
   * no symbols, and `orders` and `balances` false.
   */
  refresh: define({
    access: "member",
    pattern: "refresh_(\\d{1,20})",
    name: (memberId: string) => `refresh_${memberId}`,
    payload: z.object({
      symbols: z.array(z.string()),
      orders: z.boolean(),
      balances: z.boolean(),
      wallet: z.array(walletNoticeSchema).optional(),
      notices: z.boolean().optional(),
    }),
  }),
} as const;

export type TopicKind = keyof typeof TOPICS;
export type TopicPayloads = { [K in TopicKind]: z.infer<(typeof TOPICS)[K]["payload"]> };

/** A topic's name, branded with its kind so that a publisher and a follower agree on its payload. */
export type TopicName<K extends TopicKind> = string & { readonly __topic: K };

type Builders = { [K in TopicKind]: (...args: Parameters<(typeof TOPICS)[K]["name"]>) => TopicName<K> };
const builder = <K extends TopicKind>(kind: K) => ((...args: unknown[]) => (TOPICS[kind].name as (...a: unknown[]) => string)(...args)) as Builders[K];

/** Topic names by kind: `topics.depth("BTC/USDT")` is `depth_BTC_USDT`, typed as a depth topic. */
export const topics = {
  index: builder("index")(),
  allSymbolDetail: builder("all_symbol_detail")(),
  kline: builder("kline"),
  depth: builder("depth"),
  trade: builder("trade"),
  contractDepth: builder("contract_depth"),
  contractTrade: builder("contract_trade"),
  contractState: builder("contract_state"),
  contractKline: builder("contract_kline"),
  refresh: builder("refresh"),
};

/** The payload a topic name carries. */
export type PayloadOf<T> = T extends TopicName<infer K> ? TopicPayloads[K] : unknown;

const matchers = (Object.keys(TOPICS) as TopicKind[]).map((kind) => ({ kind, access: TOPICS[kind].access, re: new RegExp(`^(?:${TOPICS[kind].pattern})$`) }));

/** What a requested topic is: its kind and who may follow it (for a member's, the member), or null if there is no such topic. */
export function topicAccess(topic: unknown): { kind: TopicKind; access: "public" } | { kind: TopicKind; access: "member"; memberId: string } | null {
  if (typeof topic !== "string" || topic.length > 80) return null;
  for (const m of matchers) {
    const match = m.re.exec(topic);
    if (!match) continue;
    return m.access === "public" ? { kind: m.kind, access: "public" } : { kind: m.kind, access: "member", memberId: match[1]! };
  }
  return null;
}

export interface PushMessage<T = unknown> {
  topic: string;
  data: T;
}
