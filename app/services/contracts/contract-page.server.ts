import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { COIN_SOURCE } from "#protocol/fields";
import { UNSIGNED_DECIMAL_PATTERN } from "#protocol/decimal";
import { WHOLE_CONTRACTS_PATTERN } from "#protocol/limits";
import { decimalMarkOf } from "#protocol/decimal-input";
import { numberFormatOf } from "~/lib/number-format";
import { readChartPrice } from "~/lib/contract-choices";
import { CHART_CANDLES, readPeriod } from "../spot/exchange.server";
import { contractLeverageSchema, contractMarginSchema, contractOrderSchema, contractPreviewSchema, contractTpslSchema } from "~/lib/forms/contract-order";
import { EngineRefusal } from "../engine/api.server";
import type { Engine, MemberEngine } from "../engine/client.server";
import { redirectWithToast } from "../platform/toast.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";

const SYMBOL_PARAM = new RegExp(`^${COIN_SOURCE}_${COIN_SOURCE}$`);
const notFound = () => new Response("Not found", { status: 404 });

/**
 * Everything the contract trading page shows (spec §2 `/exchange/full-contract/{symbol}`): the
 * contract's rules, prices, funding, book and trades in one engine read, the contracts to switch
 * to, the chart's candles (of the last or the mark price, `?price=`, in the period `?period=`) and, for a member, the contract account's balance, the leverage, the positions and open
 * orders of the contract's type (each form with its own idempotency key) and the ticket for live
 * updates. An unknown contract is a 404.
 */
export async function loadContractPage(engine: Engine, symbolParam: string, url: URL) {
  if (!SYMBOL_PARAM.test(symbolParam)) throw notFound();
  const period = readPeriod(url);
  const price = readChartPrice(url.searchParams);
  const [goods, contracts, candles] = await Promise.all([
    engine.contractMarket.goods(symbolParam).catch((error: unknown) => {
      throw error instanceof EngineRefusal ? notFound() : error;
    }),
    engine.contractMarket.list(),
    // An unknown contract is the 404 above: its candles' refusal is not a second one.
    engine.contractMarket.candles(symbolParam, price, period, CHART_CANDLES).catch(() => []),
  ]);
  const member = engine.asMember();
  const account = member ? await loadMemberSide(member, goods.info, symbolParam) : null;
  return { symbol: goods.info.symbolName, goods, contracts, chart: { period, price, candles }, account };
}

async function loadMemberSide(engine: MemberEngine, info: { contract_type: 1 | 2; settleCoin: string }, symbolParam: string) {
  const type = String(info.contract_type) as "1" | "2";
  const [balances, funding, leverage, positions, orders, stops, ticket] = await Promise.all([
    engine.spot.balances("contract"),
    engine.spot.balances("funding"),
    engine.contracts.leverage(symbolParam),
    engine.contracts.positions(type),
    engine.contracts.orders(type, "current", 1, { pageSize: "50" }),
    engine.contracts.stops(type, "current", 1, { pageSize: "50" }),
    engine.member.realtimeTicket().catch(() => null),
  ]);
  const settle = balances.find((b) => b.coin === info.settleCoin) ?? { coin: info.settleCoin, available: "0", frozen: "0" };
  const inFunding = funding.find((b) => b.coin === info.settleCoin)?.available ?? "0";
  // Every form has a key of its own, new on each load: a retried post acts once (decision 017).
  const keys = {
    order: newIdempotencyKey(),
    leverage: newIdempotencyKey(),
    mode: newIdempotencyKey(),
    closeAll: newIdempotencyKey(),
    positions: Object.fromEntries(positions.map((p) => [p.symbolName, { close: newIdempotencyKey(), margin: newIdempotencyKey(), tpsl: newIdempotencyKey() }])),
  };
  return { settle, inFunding, leverage, positions, openOrders: orders.list, stops: stops.list, ticket, keys };
}

/**
 * The order form's live preview (`?num=&price=`): the engine's liquidation prices for the order,
 * long and short. Null for a visitor, for numbers the form would refuse (answered 400) and when
 * the engine refuses (no mark yet, a price off the tick): the form then shows none.
 */
export async function contractPreview(engine: Engine, symbolParam: string, url: URL) {
  const num = url.searchParams.get("num") ?? "";
  const price = url.searchParams.get("price");
  if (!SYMBOL_PARAM.test(symbolParam) || !WHOLE_CONTRACTS_PATTERN.test(num) || (price !== null && !UNSIGNED_DECIMAL_PATTERN.test(price)))
    return data({ preview: null }, { status: 400 });
  const member = engine.asMember();
  if (!member) return { preview: null };
  const preview = await member.attempt(() => member.contracts.preview(symbolParam, num, price ?? undefined));
  return { preview: preview.ok ? preview.value : null };
}

/** The outcome of a placed order, as the toast says it. */
function placedKey(answer: { status: string; filled: string }): string {
  if (answer.status === "waiting") return "contract_page.placed_waiting";
  const traded = /[1-9]/.test(answer.filled);
  if (answer.status === "filled") return "contract_page.placed_filled";
  if (answer.status === "open") return traded ? "contract_page.placed_partial" : "contract_page.placed_open";
  return traded ? "contract_page.placed_partial_cancelled" : "contract_page.placed_cancelled";
}

/**
 * The page's posts, by `intent`: `place` (an order, or a stop order; the direction is the button
 * pressed; the preview button instead asks where it would leave the liquidation price, placing
 * nothing), `cancel` (an order or a stop), `leverage`, `margin` (add to or take from a position),
 * `tpsl` (a position's take profit and stop loss), `close` (a position at market) and `close_all`
 * (the one-key close of the type). Each is checked with its form's schema, then one
 * engine call; a refusal comes back on its form with the engine's message and a new key.
 */
export async function contractPageAction(engine: MemberEngine, symbolParam: string) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const here = new URL(request.url).pathname + new URL(request.url).search;
  const intent = String(formData.get("intent") ?? "");
  const rules = SYMBOL_PARAM.test(symbolParam) ? await engine.guard(() => engine.contractMarket.rules(symbolParam)) : null;
  if (!rules) throw notFound();
  const mark = decimalMarkOf(lang);
  const toastRefusal = (message: string | null | undefined) =>
    redirectWithToast(request, here, { type: "error", message: message ?? undefined, key: message ? undefined : "errors.unknown" });

  if (intent === "cancel") {
    const done = await engine.attempt(() => engine.contracts.cancel(String(formData.get("orderId") ?? "")));
    return done.ok ? redirectWithToast(request, here, { type: "success", key: "exchange.cancelled" }) : toastRefusal(done.message);
  }

  if (intent === "mode") {
    const mode = formData.get("mode");
    // Two choices on a select: anything else was not sent by the page.
    if (mode !== "isolated" && mode !== "cross") return toastRefusal(null);
    const done = await engine.attempt(() => engine.contracts.setMarginMode(symbolParam, mode, String(formData.get("idempotencyKey") ?? "")));
    return done.ok
      ? redirectWithToast(request, here, { type: "success", key: mode === "cross" ? "contract_page.mode_set_cross" : "contract_page.mode_set_isolated" })
      : toastRefusal(done.message);
  }

  if (intent === "leverage") {
    const submission = parseWithZod(formData, { schema: contractLeverageSchema(rules.maxLeverage) });
    if (submission.status !== "success") return data({ form: "leverage" as const, result: submission.reply() }, { status: 400 });
    const done = await engine.attempt(() => engine.contracts.setLeverage(symbolParam, submission.value.leverage, submission.value.idempotencyKey));
    if (!done.ok) return engineRefused(submission, done, { extra: { form: "leverage" as const, key: newIdempotencyKey() } });
    return redirectWithToast(request, here, { type: "success", key: "contract_page.leverage_set", values: { leverage: String(submission.value.leverage) } });
  }

  if (intent === "close" || intent === "margin" || intent === "close_all" || intent === "tpsl") {
    // Rows of the positions table name their own contract (one of the page's type).
    const target = String(formData.get("symbol") ?? symbolParam).replace("/", "_");
    const targetRules = SYMBOL_PARAM.test(target) ? await engine.guard(() => engine.contractMarket.rules(target)) : null;
    if (!targetRules || targetRules.contract_type !== rules.contract_type) throw notFound();
    const key = String(formData.get("idempotencyKey") ?? "");
    if (intent === "close_all") {
      const done = await engine.attempt(() => engine.contracts.closeAll(String(rules.contract_type) as "1" | "2", [], key));
      return done.ok ? redirectWithToast(request, here, { type: "success", key: "contract_page.closed_all" }) : toastRefusal(done.message);
    }
    if (intent === "close") {
      const side = formData.get("side") === "short" ? "short" : "long";
      const qty = String(formData.get("qty") ?? "");
      const done = await engine.attempt(() =>
        engine.contracts.place("close", "2", { symbol: target, direction: side === "long" ? "3" : "4", num: qty, idempotencyKey: key }),
      );
      return done.ok
        ? redirectWithToast(request, here, { type: "success", key: placedKey(done.value), values: { filled: done.value.filled } })
        : toastRefusal(done.message);
    }
    if (intent === "tpsl") {
      const asked = parseWithZod(formData, { schema: contractTpslSchema(targetRules.priceScale, mark) });
      if (asked.status !== "success") return data({ form: `tpsl-${target}`, result: asked.reply() }, { status: 400 });
      const { takeProfit, stopLoss, triggerBy, idempotencyKey } = asked.value;
      const done = await engine.attempt(() =>
        engine.contracts.setTpsl({
          symbolName: target,
          triggerBy,
          idempotencyKey,
          ...(takeProfit ? { takeProfit } : {}),
          ...(stopLoss ? { stopLoss } : {}),
        }),
      );
      if (!done.ok) return engineRefused(asked, done, { extra: { form: `tpsl-${target}`, key: newIdempotencyKey() } });
      return redirectWithToast(request, here, { type: "success", key: "contract_page.tpsl_set" });
    }
    const submission = parseWithZod(formData, { schema: contractMarginSchema(targetRules.settleScale, mark) });
    if (submission.status !== "success") return data({ form: `margin-${target}`, result: submission.reply() }, { status: 400 });
    const { change, amount, idempotencyKey } = submission.value;
    const done = await engine.attempt(() => engine.contracts.changeMargin(target, change === "add" ? amount! : `-${amount}`, idempotencyKey));
    if (!done.ok) return engineRefused(submission, done, { extra: { form: `margin-${target}`, key: newIdempotencyKey() } });
    return redirectWithToast(request, here, {
      type: "success",
      key: change === "add" ? "contract_page.margin_added" : "contract_page.margin_removed",
      values: { amount: numberFormatOf(lang).display(amount!, { abbreviate: false }), coin: targetRules.settleCoin },
    });
  }

  // The preview button (the form without JavaScript): what the order would leave, worked out by the engine; nothing placed.
  if (formData.get("preview") === "1") {
    const asked = parseWithZod(formData, { schema: contractPreviewSchema(rules.priceScale, mark) });
    if (asked.status !== "success") return data({ form: "order" as const, result: asked.reply() }, { status: 400 });
    const { orderType, price, num, triggerPrice } = asked.value;
    // A stop previews at its price, else at its trigger (where a market order would start to fill).
    const at = orderType === "limit" ? price : orderType === "stop" ? (price ?? triggerPrice) : undefined;
    const preview = await engine.attempt(() => engine.contracts.preview(symbolParam, num!, at));
    if (!preview.ok) return engineRefused(asked, preview, { extra: { form: "order" as const } });
    return data({ form: "order" as const, result: asked.reply(), preview: preview.value });
  }

  const submission = parseWithZod(formData, { schema: contractOrderSchema(rules.priceScale, mark) });
  if (submission.status !== "success") return data({ form: "order" as const, result: submission.reply() }, { status: 400 });
  const order = submission.value;
  const action = order.direction === "1" || order.direction === "2" ? "open" : "close";
  // A stop order with a price is placed as a limit (good till cancelled) once triggered; without one, at the market.
  const limit = order.orderType === "limit" || (order.orderType === "stop" && order.price !== undefined);
  const placed = await engine.attempt(() =>
    engine.contracts.place(action, limit ? "1" : "2", {
      symbol: symbolParam,
      direction: order.direction,
      num: order.num!,
      idempotencyKey: order.idempotencyKey,
      ...(limit ? { price: order.price!, tif: order.orderType === "limit" ? order.tif : "GTC" } : {}),
      ...(order.orderType === "stop" ? { triggerPrice: order.triggerPrice!, triggerBy: order.triggerBy } : {}),
    }),
  );
  // The engine keeps this answer under the key: the next try needs a new one.
  if (!placed.ok) return engineRefused(submission, placed, { extra: { form: "order" as const, key: newIdempotencyKey() } });
  return redirectWithToast(request, here, {
    type: /[1-9]/.test(placed.value.filled) || placed.value.status !== "cancelled" ? "success" : "info",
    key: placedKey(placed.value),
    values: { filled: placed.value.filled },
  });
}
