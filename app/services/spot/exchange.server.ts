import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { KLINE_PERIODS, type KlinePeriod } from "#protocol/endpoints/market-data";
import { COIN_SOURCE, IDEMPOTENCY_KEY_PATTERN } from "#protocol/fields";
import { subtractDecimals, UNSIGNED_DECIMAL_PATTERN } from "#protocol/decimal";
import { decimalMarkOf } from "#protocol/decimal-input";
import { numberFormatOf } from "~/lib/number-format";
import { readDeal, readMemberTab, type Deal, type MemberTab } from "~/lib/trading-tabs";
import { ORDER_TYPES, precisionOf, spotOrderSchema, toOrderRequest, type OrderFormType } from "~/lib/forms/spot-order";
import { EngineRefusal } from "../engine/api.server";
import type { Engine, MemberEngine } from "../engine/client.server";
import { redirectWithToast } from "../platform/toast.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";

/** Default chart period of the trading page. */
export const DEFAULT_PERIOD: KlinePeriod = "15m";
/** Candles a trading page's chart starts with. */
export const CHART_CANDLES = 150;

export function readPeriod(url: URL): KlinePeriod {
  const p = url.searchParams.get("period");
  return (KLINE_PERIODS as readonly string[]).includes(p ?? "") ? (p as KlinePeriod) : DEFAULT_PERIOD;
}

export function readOrderType(url: URL): OrderFormType {
  const t = url.searchParams.get("type");
  return (ORDER_TYPES as readonly string[]).includes(t ?? "") ? (t as OrderFormType) : "limit";
}

/**
 * Everything the trading page shows for one symbol (`BTC_USDT`): the engine's snapshot (rules,
 * ticker, depth, trades), every market's ticker for the symbol list, candles of the chosen period
 * and, for a member, balances, open orders and the ticket for live order updates. An unknown
 * symbol is a 404.
 */
export async function loadExchange(engine: Engine, symbolParam: string) {
  const url = new URL(engine.request.url);
  const period = readPeriod(url);
  const symbol = symbolParam.replace("_", "/");
  const goods = await loadGoods(engine, symbolParam);
  const [markets, candles] = await Promise.all([engine.market.snapshot(), engine.market.candles(symbolParam, period, CHART_CANDLES)]);
  const member = engine.asMember();
  const account = member
    ? await loadMemberSide(
        member,
        goods.symbol.coin_symbol,
        goods.symbol.quote_symbol,
        symbolParam,
        readMemberTab(url.searchParams),
        readDeal(url.searchParams),
      )
    : null;
  return {
    symbol,
    period,
    orderType: readOrderType(url),
    goods,
    markets,
    candles,
    account,
  };
}

/** Rows of the member panel's history and trades tabs (the whole lists are on the orders pages). */
const PANEL_ROWS = "20";

async function loadMemberSide(engine: MemberEngine, base: string, quote: string, symbolParam: string, tab: MemberTab, asked: Deal) {
  // A market on margin offers the cash / margin switch; elsewhere the forms trade cash.
  const pair = await engine.margin.pair(symbolParam).catch(() => null);
  const deal = pair ? asked : "cash";
  const [balances, margin, funding, ticket, openOrders, history, trades] = await Promise.all([
    deal === "cash" ? engine.spot.balances("spot") : null,
    deal === "cash" ? null : engine.margin.account(deal, symbolParam),
    engine.spot.balances("funding"),
    engine.member.realtimeTicket().catch(() => null),
    engine.spot.orders("current", { symbol: symbolParam, pageSize: "50" }).then((page) => page.records),
    // Only the tab shown is read: the others are a link away.
    tab === "history" ? engine.spot.orders("history", { symbol: symbolParam, pageSize: PANEL_ROWS }).then((page) => page.records) : null,
    tab === "trades" ? engine.spot.trades({ pageNo: 1, pageSize: Number(PANEL_ROWS) }, { symbol: symbolParam }).then((page) => page.records) : null,
  ]);
  const of = (coin: string) => {
    const held = margin ? margin.coins.find((c) => c.coin === coin) : balances?.find((b) => b.coin === coin);
    if (!held) return { coin, available: "0", frozen: "0" };
    return { coin, available: held.available, frozen: "frozen" in held ? held.frozen : subtractDecimals(held.balance, held.available) };
  };
  // Order forms' keys are made for a member only: a visitor's page holds nothing of its own, so it
  // can be served to every visitor from the page cache (decision 038).
  const keys = { buy: newIdempotencyKey(), sell: newIdempotencyKey(), fundBuy: newIdempotencyKey(), fundSell: newIdempotencyKey() };
  // What the funding account holds of each coin: deposits land there, and the form offers to move it.
  const inFunding = (coin: string) => funding.find((b) => b.coin === coin)?.available ?? "0";
  return {
    base: of(base),
    quote: of(quote),
    funding: { base: inFunding(base), quote: inFunding(quote) },
    ticket,
    openOrders,
    history,
    trades,
    keys,
    deal,
    // Margin: the switch, and the level, debts and leverage of the account the forms trade from.
    margin: pair
      ? {
          account: margin
            ? {
                marginLevel: margin.marginLevel,
                debtsValue: margin.debtsValue,
                leverage: margin.leverage,
                warned: margin.warned,
                liquidationLevel: margin.liquidationLevel,
              }
            : null,
        }
      : null,
  };
}

const SYMBOL_PARAM = new RegExp(`^${COIN_SOURCE}_${COIN_SOURCE}$`);
const COIN_PATTERN = new RegExp(`^${COIN_SOURCE}$`);
const notFound = () => new Response("Not found", { status: 404 });

/** A market's rules, ticker, depth and trades; an unknown or malformed symbol is a 404. */
async function loadGoods(engine: Engine, symbolParam: string) {
  if (!SYMBOL_PARAM.test(symbolParam)) throw notFound();
  return engine.market.goods(symbolParam).catch((error: unknown) => {
    throw error instanceof EngineRefusal ? notFound() : error;
  });
}

/**
 * Places an order (intent `place`) or cancels one (intent `cancel`). The form is checked against
 * the market's scales from the web tier's cache, so placing an order is one engine call.
 */
export async function exchangeAction(engine: MemberEngine, symbolParam: string) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const back = new URL(request.url);
  back.searchParams.delete("index");
  const here = back.pathname + back.search;

  if (formData.get("intent") === "cancel") {
    const done = await engine.attempt(() => engine.spot.cancel(String(formData.get("orderId") ?? "")));
    if (!done.ok)
      return redirectWithToast(request, here, { type: "error", message: done.message ?? undefined, key: done.message ? undefined : "errors.unknown" });
    return redirectWithToast(request, here, { type: "success", key: "exchange.cancelled" });
  }

  if (formData.get("intent") === "fund") return fundSpotAction(engine, formData, here);

  const rules = SYMBOL_PARAM.test(symbolParam) ? await engine.guard(() => engine.market.symbolRules(symbolParam)) : null;
  if (!rules) throw notFound();
  // Numbers are read as typed in the member's language, never reshaped (decision 014): a refused
  // form comes back with exactly what was typed.
  const schema = spotOrderSchema(precisionOf(rules), decimalMarkOf(lang));
  const side = formData.get("side") === "sell" ? "sell" : "buy";
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ side, result: submission.reply() }, { status: 400 });
  const placed = await engine.attempt(() => engine.spot.place(toOrderRequest(submission.value, symbolParam)));
  if (!placed.ok) {
    // The engine keeps this answer under the key: the next try needs a new one.
    return engineRefused(submission, placed, { extra: { side, key: newIdempotencyKey() } });
  }
  const answer = placed.value;
  const traded = /[1-9]/.test(answer.filled);
  const key =
    answer.status === "waiting"
      ? "waiting"
      : answer.status === "filled"
        ? "filled"
        : answer.status === "open"
          ? traded
            ? "partial"
            : "open"
          : traded
            ? "partial_cancelled"
            : "cancelled";
  return redirectWithToast(request, here, {
    type: traded || answer.status !== "cancelled" ? "success" : "info",
    key: `exchange.placed_${key}`,
    values: { filled: numberFormatOf(lang).display(answer.filled, { abbreviate: false }), coin: rules.coin_symbol },
  });
}

/**
 * The trading page's one-step move (intent `fund`): what the funding account held of one coin when
 * the page was drawn (the amount the button names) goes to the spot account, where orders spend it. Deposits land in the funding account, so a new
 * member's "Available 0" has its remedy beside it. The key makes a retried post move once.
 */
async function fundSpotAction(engine: MemberEngine, formData: FormData, here: string) {
  const { request, lang } = engine;
  const coin = String(formData.get("coin") ?? "");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "");
  // The amount the button showed, sent as a canonical decimal (the page wrote it, not the member).
  const amount = String(formData.get("amount") ?? "");
  if (!COIN_PATTERN.test(coin) || !UNSIGNED_DECIMAL_PATTERN.test(amount) || !/[1-9]/.test(amount) || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey))
    return redirectWithToast(request, here, { type: "error", key: "exchange.funding_empty", values: { coin: coin.slice(0, 12) } });
  const moved = await engine.attempt(() => engine.wallet.transfer({ from: "funding", to: "spot", coin, amount, idempotencyKey }));
  if (!moved.ok)
    return redirectWithToast(request, here, { type: "error", message: moved.message ?? undefined, key: moved.message ? undefined : "errors.unknown" });
  return redirectWithToast(request, here, {
    type: "success",
    key: "exchange.funded",
    values: { amount: numberFormatOf(lang).display(amount, { abbreviate: false }), coin },
  });
}
