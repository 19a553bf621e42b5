import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput, toInputText, type DecimalMark } from "#protocol/decimal-input";
import { toMinor } from "#protocol/decimal";
import { endpoints } from "#protocol/endpoints";
import type { OpsMarket } from "#protocol/endpoints/spot";
import { keyError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { send, textOf } from "./__rule-forms.server";

/*
 * The markets page's loader and action (`markets.tsx`), apart from the route module so what reads
 * the forms stays on the server (decision 037: a `.server` module is an empty module in the
 * browser's build).
 */

export const MARKETS_PAGE = "/ops/markets";

/** The rules a live market may change (decision 016), as the rules form names its fields. */
export const RULE_FIELDS = ["minQuantity", "makerFeeBps", "takerFeeBps"] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** The highest fee a market may charge, in basis points (the engine's `MAX_FEE_BPS`). */
export const MAX_FEE_BPS = 1_000;

/**
 * A refused post, for the row it came from: the market (null for a symbol the page does not list),
 * what was posted, the form's error or its fields' errors, and the rules form's values as typed
 * (the form comes back as it was sent).
 */
export interface MarketRefusal {
  symbol: string | null;
  intent: "halt" | "resume" | "rules" | null;
  error?: string;
  fields?: Partial<Record<RuleField, string>>;
  values?: Partial<Record<RuleField, string>>;
}

/** Every spot market, whether the operator may change them, and the decimal mark they type in. */
export function loadMarkets(args: LoaderFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops }) => {
    const markets = await ops.call(endpoints.opsMarkets);
    return data({ markets, mayChange: ops.may("markets.change"), mark: decimalMarkOf(ops.lang) }, { headers: OPS_HEADERS });
  });
}

const INTENTS = ["halt", "resume", "rules"] as const;

/**
 * A fee typed in basis points: a whole number from 0 to 1,000 (0 is a fee too), or the key of what
 * is wrong with it.
 */
function readFee(raw: string): { ok: true; value: number } | { ok: false; error: string } {
  const text = raw.trim();
  if (text === "") return { ok: false, error: "ops.errors.value_required" };
  if (/^[-−]/.test(text)) return { ok: false, error: "validation.number.negative" };
  if (!/^\d{1,6}$/.test(text) || Number(text) > MAX_FEE_BPS) return { ok: false, error: "ops.errors.fee_bps" };
  return { ok: true, value: Number(text) };
}

/**
 * The minimum quantity typed in the operator's language, read exactly (decision 039): a decimal
 * within the market's amount decimals and a whole number of its lots, or the key of what is wrong.
 */
function readMinimum(raw: string, market: OpsMarket, mark: DecimalMark): { ok: true; value: string } | { ok: false; error: string } {
  const read = readDecimalInput(raw, { scale: market.amountScale, mark });
  if (!read.ok) return { ok: false, error: read.error === "required" ? "ops.errors.value_required" : `validation.number.${read.error}` };
  const minor = toMinor(read.value, market.amountScale);
  if (minor % toMinor(market.lotSize, market.amountScale) !== 0n) {
    return { ok: false, error: keyError("ops.errors.lots", { lot: toInputText(market.lotSize, mark), coin: market.base }) };
  }
  return { ok: true, value: read.value };
}

/** The rules of a market a change sends (each only when changed). */
type RulesChange = { minQuantity?: string; makerFeeBps?: number; takerFeeBps?: number };

/**
 * A rules form read: the rules to send (those the operator changed: different from what the form
 * showed, a hidden `shown.<field>`, and from what stands now: a rule another operator just changed
 * is not set back), or the fields' errors. Nothing changed at all is refused as such.
 */
function readRules(form: FormData, market: OpsMarket, mark: DecimalMark): { ok: true; change: RulesChange } | MarketRefusal {
  const values = rulesFormValues(form);
  const minimum = readMinimum(values.minQuantity ?? "", market, mark);
  const maker = readFee(values.makerFeeBps ?? "");
  const taker = readFee(values.takerFeeBps ?? "");
  const fields: Partial<Record<RuleField, string>> = {
    ...(!minimum.ok && { minQuantity: minimum.error }),
    ...(!maker.ok && { makerFeeBps: maker.error }),
    ...(!taker.ok && { takerFeeBps: taker.error }),
  };
  if (!minimum.ok || !maker.ok || !taker.ok) return { symbol: market.symbol, intent: "rules", fields, values };
  /** Whether a rule was changed: not what the form showed (or, without it, what stands), nor what stands now. */
  const changed = (field: RuleField, value: string | number, now: string | number) =>
    String(value) !== (textOf(form, `shown.${field}`) ?? String(now)) && value !== now;
  const change: RulesChange = {
    ...(changed("minQuantity", minimum.value, market.minQuantity) && { minQuantity: minimum.value }),
    ...(changed("makerFeeBps", maker.value, market.makerFeeBps) && { makerFeeBps: maker.value }),
    ...(changed("takerFeeBps", taker.value, market.takerFeeBps) && { takerFeeBps: taker.value }),
  };
  if (Object.keys(change).length === 0) return { symbol: market.symbol, intent: "rules", error: keyError("ops.errors.no_change"), values };
  return { ok: true, change };
}

/**
 * Halts or resumes a market (`intent` halt or resume) or changes its rules (`intent=rules`: the
 * minimum quantity and the fees, only those changed), each a form of its row naming the market.
 * Done: back to the page with a toast. Refused (a market not listed, a value that cannot be read,
 * a role that may not, the engine's refusal): the page again with the row's error and the form as
 * typed, nothing changed.
 */
export function marketsAction(args: ActionFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops, request }) => {
    const refuse = (refusal: MarketRefusal, status = 400) => data({ refusal }, { status, headers: OPS_HEADERS });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refuse({ symbol: null, intent: null, error: keyError("ops.errors.invalid") });
    }
    const intent = INTENTS.find((one) => one === form.get("intent")) ?? null;
    const posted = textOf(form, "symbol") ?? "";
    if (!intent) return refuse({ symbol: null, intent, error: keyError("ops.errors.invalid") });
    // The engine refuses a role without `markets.change` too; said before anything is read.
    if (!ops.may("markets.change")) return refuse({ symbol: null, intent, error: keyError("ops.errors.role_denied") }, 403);
    const market = (await ops.call(endpoints.opsMarkets)).find((one) => one.symbol === posted);
    if (!market) return refuse({ symbol: null, intent, error: keyError("ops.errors.market") });
    const { symbol } = market;

    if (intent === "rules") {
      const rules = readRules(form, market, decimalMarkOf(ops.lang));
      if (!("ok" in rules)) return refuse(rules);
      const refused = await send(ops, { symbol, intent, values: rulesFormValues(form) }, () =>
        ops.call(endpoints.adminMarketUpdate, { body: { symbol, ...rules.change } }),
      );
      if (refused) return refuse(refused);
      return redirectWithToast(request, MARKETS_PAGE, { type: "success", key: "ops.markets.rules_done", values: { symbol } }, { headers: OPS_HEADERS });
    }

    const halted = intent === "halt";
    // Already so (another operator, a second tab): no change, and no audit row of one.
    if (market.halted === halted) return refuse({ symbol, intent, error: keyError(halted ? "ops.errors.halted_already" : "ops.errors.trading_already") });
    const refused = await send(ops, { symbol, intent }, () => ops.call(endpoints.adminMarketHalt, { body: { symbol, halted } }));
    if (refused) return refuse(refused);
    return redirectWithToast(
      request,
      MARKETS_PAGE,
      { type: "success", key: halted ? "ops.markets.halted_done" : "ops.markets.resumed_done", values: { symbol } },
      { headers: OPS_HEADERS },
    );
  });
}

/** The rules form's values as typed, to show it again. */
function rulesFormValues(form: FormData): Partial<Record<RuleField, string>> {
  return Object.fromEntries(RULE_FIELDS.map((field) => [field, textOf(form, field) ?? ""]));
}
