import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { KLINE_PERIODS, type KlinePeriod } from "#protocol/endpoints/market-data";
import { decimalMarkOf } from "~/lib/decimal-input";
import { numberFormatOf } from "~/lib/number-format";
import { ORDER_TYPES, precisionOf, spotOrderSchema, toOrderRequest, type OrderFormType } from "~/lib/forms/spot-order";
import { callEndpoint, EngineRefusal } from "./api.server";
import { callAsMember, getMember, requireMember } from "./auth.server";
import { orUnavailable } from "./errors.server";
import { detectLanguage } from "./i18n.server";
import { loadSpotSnapshot } from "./market.server";
import { attempt } from "./register.server";
import { redirectWithToast } from "./toast.server";

/** Default chart period of the trading page. */
export const DEFAULT_PERIOD: KlinePeriod = "15m";
const CANDLES = 150;

export function readPeriod(url: URL): KlinePeriod {
  const p = url.searchParams.get("period");
  return (KLINE_PERIODS as readonly string[]).includes(p ?? "") ? (p as KlinePeriod) : DEFAULT_PERIOD;
}

export function readOrderType(url: URL): OrderFormType {
  const t = url.searchParams.get("type");
  return (ORDER_TYPES as readonly string[]).includes(t ?? "") ? (t as OrderFormType) : "limit";
}

/** A fresh idempotency key for a money-moving form (one per rendered form). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/**
 * Everything the trading page shows for one symbol (`BTC_USDT`): the engine's snapshot (rules,
 * ticker, depth, trades), every market's ticker for the symbol list, candles of the chosen period
 * and, for a member, balances, open orders and the ticket for live order updates. An unknown
 * symbol is a 404.
 */
export async function loadExchange(request: Request, symbolParam: string) {
  const url = new URL(request.url);
  const lang = await detectLanguage(request);
  const period = readPeriod(url);
  const symbol = symbolParam.replace("_", "/");
  const goods = await loadGoods(request, symbolParam, lang);
  const [markets, candles] = await Promise.all([
    orUnavailable(request, loadSpotSnapshot(lang)),
    orUnavailable(request, callEndpoint(endpoints.klineHistory, { query: { symbol: symbolParam, period, limit: String(CANDLES) } }, { lang })),
  ]);
  const member = await getMember(request);
  const account = member ? await loadMemberSide(request, member, goods.symbol.coin_symbol, goods.symbol.quote_symbol, symbolParam) : null;
  return data(
    {
      symbol,
      period,
      orderType: readOrderType(url),
      goods,
      markets,
      candles,
      account,
      keys: { buy: newIdempotencyKey(), sell: newIdempotencyKey() },
    },
    { headers: member?.headers },
  );
}

async function loadMemberSide(request: Request, member: NonNullable<Awaited<ReturnType<typeof getMember>>>, base: string, quote: string, symbolParam: string) {
  const [balances, ticket, openOrders] = await Promise.all([
    orUnavailable(request, callAsMember(request, member, endpoints.balances, { query: { type: "2" } })),
    callAsMember(request, member, endpoints.realtimeTicket).catch(() => null),
    loadOpenOrders(request, member, symbolParam),
  ]);
  const of = (coin: string) => balances.find((b) => b.coin === coin) ?? { coin, available: "0", frozen: "0" };
  return { base: of(base), quote: of(quote), ticket, openOrders };
}

/** The member's open orders in this market (newest first). */
async function loadOpenOrders(request: Request, member: NonNullable<Awaited<ReturnType<typeof getMember>>>, symbolParam: string) {
  const page = await orUnavailable(request, callAsMember(request, member, endpoints.myOrders, { params: { x: "current" }, query: { symbol: symbolParam, pageSize: "50" } }));
  return page.records;
}

/** A market's rules, ticker, depth and trades; an unknown or malformed symbol is a 404 (page or post). */
async function loadGoods(request: Request, symbolParam: string, lang: Awaited<ReturnType<typeof detectLanguage>>, levels?: string) {
  if (!/^[A-Z0-9]{1,20}_[A-Z0-9]{1,20}$/.test(symbolParam)) throw new Response("Not found", { status: 404 });
  return orUnavailable(
    request,
    callEndpoint(endpoints.spotGoods, { query: { symbol: symbolParam, ...(levels ? { levels } : {}) } }, { lang }).catch((error) => {
      if (error instanceof EngineRefusal) throw new Response("Not found", { status: 404 });
      throw error;
    }),
  );
}

/** Places an order (intent `place`) or cancels one (intent `cancel`). */
export async function exchangeAction(request: Request, symbolParam: string) {
  const member = await requireMember(request);
  const formData = await request.formData();
  const back = new URL(request.url);
  back.searchParams.delete("index");
  const here = back.pathname + back.search;
  const lang = await detectLanguage(request);

  if (formData.get("intent") === "cancel") {
    const orderId = String(formData.get("orderId") ?? "");
    const done = await attempt(() => callAsMember(request, member, endpoints.cancelOrder, { body: { orderId } }));
    if (!done.ok) return redirectWithToast(request, here, { type: "error", message: done.message ?? undefined, key: done.message ? undefined : "errors.unknown" });
    return redirectWithToast(request, here, { type: "success", key: "exchange.cancelled" });
  }

  const goods = await loadGoods(request, symbolParam, lang, "1");
  const precision = precisionOf(goods.symbol);
  // Numbers are read as typed in the member's language, never reshaped (decision 014): a refused
  // form comes back with exactly what was typed.
  const schema = spotOrderSchema(precision, decimalMarkOf(lang));
  const side = formData.get("side") === "sell" ? "sell" : "buy";
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ side, result: submission.reply() }, { status: 400 });
  const { type, body } = toOrderRequest(submission.value, symbolParam);
  const placed = await attempt(() => callAsMember(request, member, endpoints.placeOrder, { params: { type }, body } as never));
  if (!placed.ok) {
    // The engine keeps this answer under the key: the next try needs a new one.
    return data({ side, result: submission.reply({ formErrors: [placed.message ?? "errors.unknown"] }), key: newIdempotencyKey() }, { status: 400 });
  }
  const answer = placed.value as { status: string; filled: string };
  const traded = /[1-9]/.test(answer.filled);
  const key =
    answer.status === "waiting" ? "waiting" : answer.status === "filled" ? "filled" : answer.status === "open" ? (traded ? "partial" : "open") : traded ? "partial_cancelled" : "cancelled";
  return redirectWithToast(request, here, { type: traded || answer.status !== "cancelled" ? "success" : "info", key: `exchange.placed_${key}`, values: { filled: numberFormatOf(lang).display(answer.filled, { abbreviate: false }), coin: goods.symbol.coin_symbol } });
}
