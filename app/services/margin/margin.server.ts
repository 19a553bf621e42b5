import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { multiplyDecimal } from "#protocol/decimal";
import { decimalMarkOf } from "#protocol/decimal-input";
import type { MarginAccountView } from "#protocol/endpoints/margin";
import { marginLeverageSchema, marginMoveSchema, type MarginOperation } from "~/lib/forms/margin";
import { numberFormatOf } from "~/lib/number-format";
import type { MemberEngine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";
import { redirectWithToast } from "../platform/toast.server";

/** The account a page address names: `all` (cross) or an isolated symbol as BTC_USDT. */
const ACCOUNT_PARAM = /^(all|[A-Z0-9]{1,12}_[A-Z0-9]{1,12})$/;

/** Which margin account the address asks for (`?account=`), cross when none or one that is not a margin pair. */
function accountOf(request: Request, isolated: readonly MarginAccountView[]): MarginAccountView["symbolName"] {
  const asked = new URL(request.url).searchParams.get("account") ?? "all";
  if (!ACCOUNT_PARAM.test(asked) || asked === "all") return null;
  const symbol = asked.replace("_", "/");
  return isolated.some((a) => a.symbolName === symbol) ? symbol : null;
}

/**
 * The margin page (decision 050): the member's cross account and isolated accounts (one shown, the
 * others a tab each), its coins with what is owed and what may be borrowed, the lines, the pools'
 * rates, each coin's decimals and what the funding account holds of it, and fresh keys.
 */
export async function loadMarginPage(engine: MemberEngine) {
  const [property, rates, funding] = await engine.guard(() => Promise.all([engine.margin.property(), engine.margin.rates(), engine.wallet.coins("funding")]));
  const symbol = accountOf(engine.request, property.isolated);
  const account = symbol === null ? property.cross : property.isolated.find((a) => a.symbolName === symbol)!;
  // USDT (what levels are valued in) first, then the coins as the pairs name them.
  const ordered = [...account.coins].sort((a, b) => Number(b.coin === "USDT") - Number(a.coin === "USDT"));
  const coins = ordered.map((c) => {
    const wallet = funding.find((f) => f.coin === c.coin);
    const rate = rates.find((r) => r.coin === c.coin);
    // The pool's simple yearly rate as a percentage, worked out here (exact decimals stay off the page's code).
    const yearlyPercent = rate ? multiplyDecimal(rate.yearlyRate, "100", 4) : null;
    return { ...c, scale: wallet?.scale ?? 8, funding: wallet?.available ?? "0", yearlyPercent };
  });
  return {
    account: { ...account, coins },
    tabs: [
      { symbol: null, level: property.cross.marginLevel, warned: property.cross.warned },
      ...property.isolated.map((a) => ({ symbol: a.symbolName, level: a.marginLevel, warned: a.warned })),
    ],
    keys: { move: newIdempotencyKey(), leverage: newIdempotencyKey() },
  };
}

/**
 * The margin page's forms: `move` (funds in or out, a borrow, a repayment of one coin) and
 * `leverage` (an isolated account's). Each is checked with its form's schema, then one engine
 * call; a refusal comes back on its form with the engine's message (and the figures that would
 * pass) and a new key; success returns to the page with a toast.
 */
export async function marginPageAction(engine: MemberEngine) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  const property = await engine.guard(() => engine.margin.property());
  const symbol = accountOf(request, property.isolated);
  const account = symbol === null ? property.cross : property.isolated.find((a) => a.symbolName === symbol)!;
  const target = { mode: account.mode, ...(symbol !== null ? { symbol: symbol.replace("/", "_") } : {}) };

  if (formData.get("intent") === "leverage") {
    const submission = parseWithZod(formData, { schema: marginLeverageSchema(account.maxLeverage) });
    if (submission.status !== "success" || symbol === null)
      return data({ form: "leverage" as const, result: submission.reply(), key: newIdempotencyKey() }, { status: 400 });
    const done = await engine.attempt(() => engine.margin.setLeverage(target.symbol!, submission.value.leverage, submission.value.idempotencyKey));
    if (!done.ok) return engineRefused(submission, done, { extra: { form: "leverage" as const, key: newIdempotencyKey() } });
    return redirectWithToast(request, here, { type: "success", key: "margin_page.leverage_set", values: { leverage: String(submission.value.leverage) } });
  }

  const coin = String(formData.get("coin") ?? "");
  const scale = (await engine.guard(() => engine.wallet.coins("funding"))).find((c) => c.coin === coin)?.scale ?? 8;
  const submission = parseWithZod(formData, { schema: marginMoveSchema(scale, decimalMarkOf(lang)) });
  if (submission.status !== "success")
    return data({ form: "move" as const, result: submission.reply(), key: String(formData.get("idempotencyKey") ?? newIdempotencyKey()) }, { status: 400 });
  const { operation, amount, idempotencyKey } = submission.value;
  const on = { ...target, coin: submission.value.coin };
  const done = await engine.attempt(() => {
    switch (operation) {
      case "borrow":
        return engine.margin.borrow(on, amount!, idempotencyKey);
      case "repay":
        return engine.margin.repay(on, amount!, idempotencyKey);
      default:
        return engine.margin.transfer(on, operation, amount!, idempotencyKey);
    }
  });
  if (!done.ok) return engineRefused(submission, done, { extra: { form: "move" as const, key: newIdempotencyKey() } });
  return redirectWithToast(request, here, {
    type: "success",
    key: DONE[operation],
    values: { amount: numberFormatOf(lang).display(amount!, { abbreviate: false }), coin: on.coin },
  });
}

const DONE: Record<MarginOperation, string> = {
  in: "margin_page.done_in",
  out: "margin_page.done_out",
  borrow: "margin_page.done_borrow",
  repay: "margin_page.done_repay",
};
