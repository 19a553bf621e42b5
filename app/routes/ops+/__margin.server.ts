import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { compareDecimal } from "#protocol/decimal";
import { endpoints } from "#protocol/endpoints";
import { keyError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { newIdempotencyKey } from "~/services/platform/idempotency.server";
import { send, textOf } from "./__rule-forms.server";

/*
 * The console's margin page (`margin.tsx`; issue 31, decision 050): its loader and action, apart
 * from the route module so what reads the forms stays on the server (decision 037).
 */

export const MARGIN_PAGE = "/ops/margin";

/** What a pool's form changes, as its fields name them: the hourly rate, the lending limit, the smallest borrow. */
export const POOL_FIELDS = ["hourlyRate", "limit", "minBorrow"] as const;
export type PoolField = (typeof POOL_FIELDS)[number];

export interface PoolRefusal {
  coin: string | null;
  error?: string;
  fields?: Partial<Record<PoolField, string>>;
  values?: Partial<Record<PoolField, string>>;
}

/** The lending pools with what they lend and have earned, and whether the operator may change them. */
export function loadMargin(args: LoaderFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops }) => {
    const [pools, { pairs }, markets] = await Promise.all([
      ops.call(endpoints.opsMarginPools),
      ops.call(endpoints.marginPairs),
      ops.call(endpoints.opsMarkets),
    ]);
    // A key per pool's insurance form: a retried post moves the fees once.
    const keys = Object.fromEntries(pools.map((p) => [p.coin, newIdempotencyKey()]));
    const onMargin = new Set(pairs.map((p) => p.symbolName));
    const offMargin = markets.map((m) => m.symbol).filter((symbol) => !onMargin.has(symbol));
    return data({ pools, pairs, offMargin, keys, mayChange: ops.may("markets.change"), mark: decimalMarkOf(ops.lang) }, { headers: OPS_HEADERS });
  });
}

/**
 * A pool's rules: each field as typed in the operator's language (the rate a fraction with up to
 * 12 decimals, at most 0.01 an hour); only what changed from the pool as it stands is sent. Done:
 * back to the page with a toast; refused: the row's errors, nothing changed.
 */
export function marginAction(args: ActionFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops, request }) => {
    const refuse = (refusal: PoolRefusal, status = 400) => data({ refusal }, { status, headers: OPS_HEADERS });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refuse({ coin: null, error: keyError("ops.errors.invalid") });
    }
    if (!ops.may("markets.change")) return refuse({ coin: null, error: keyError("ops.errors.role_denied") }, 403);
    if (form.get("intent") === "pair") {
      // A market put on margin, or a pair's highest leverage: a whole number from 2 to 10, checked here and by the engine.
      const symbol = textOf(form, "symbolName") ?? "";
      const leverage = textOf(form, "maxLeverage") ?? "";
      if (!symbol) return refuse({ coin: null, error: keyError("ops.margin.pair_market_required") });
      if (!/^(?:[2-9]|10)$/.test(leverage.trim())) return refuse({ coin: symbol, error: keyError("ops.margin.pair_leverage_range") });
      const refused = await send(ops, { coin: symbol }, () =>
        ops.call(endpoints.adminMarginPair, { body: { symbolName: symbol, maxLeverage: Number(leverage.trim()) } }),
      );
      if (refused) return refuse(refused);
      return redirectWithToast(
        request,
        MARGIN_PAGE,
        { type: "success", key: "ops.margin.pair_saved", values: { symbol, leverage: leverage.trim() } },
        { headers: OPS_HEADERS },
      );
    }
    const coin = textOf(form, "coin") ?? "";
    const pool = (await ops.call(endpoints.opsMarginPools)).find((p) => p.coin === coin);
    if (!pool) return refuse({ coin: null, error: keyError("ops.errors.invalid") });
    const mark = decimalMarkOf(ops.lang);
    if (form.get("intent") === "insurance") {
      // Trading fees into the coin's margin insurance: an amount as typed, once per key.
      const got = readDecimalInput(textOf(form, "amount") ?? "", { scale: 8, mark });
      if (!got.ok) return refuse({ coin, error: keyError(got.error === "required" ? "ops.errors.value_required" : "ops.margin.amount_invalid") });
      const idempotencyKey = textOf(form, "idempotencyKey") ?? "";
      const refused = await send(ops, { coin }, () => ops.call(endpoints.adminMarginInsurance, { body: { coin, amount: got.value, idempotencyKey } }));
      if (refused) return refuse(refused);
      return redirectWithToast(
        request,
        MARGIN_PAGE,
        { type: "success", key: "ops.margin.funded", values: { coin, amount: got.value } },
        { headers: OPS_HEADERS },
      );
    }
    const values = Object.fromEntries(POOL_FIELDS.map((f) => [f, textOf(form, f) ?? ""])) as Record<PoolField, string>;
    const fields: Partial<Record<PoolField, string>> = {};
    const read: Partial<Record<PoolField, string>> = {};
    for (const field of POOL_FIELDS) {
      const got = readDecimalInput(values[field], { scale: field === "hourlyRate" ? 12 : 8, mark });
      if (!got.ok) fields[field] = got.error === "required" ? "ops.errors.value_required" : `validation.number.${got.error}`;
      else read[field] = got.value;
    }
    if (read.hourlyRate !== undefined && compareDecimal(read.hourlyRate, "0.01") > 0) fields.hourlyRate = "ops.margin.rate_range";
    if (Object.keys(fields).length) return refuse({ coin, fields, values });
    const now = { hourlyRate: pool.hourlyRate, limit: pool.limit, minBorrow: pool.minBorrow };
    const changed = (field: PoolField) => compareDecimal(read[field]!, now[field]) !== 0;
    const change = Object.fromEntries(POOL_FIELDS.filter(changed).map((f) => [f, read[f]!]));
    if (Object.keys(change).length === 0) return refuse({ coin, error: keyError("ops.errors.no_change"), values });
    const refused = await send(ops, { coin, values }, () => ops.call(endpoints.adminMarginPool, { body: { coin, ...change } }));
    if (refused) return refuse(refused);
    return redirectWithToast(request, MARGIN_PAGE, { type: "success", key: "ops.margin.saved", values: { coin } }, { headers: OPS_HEADERS });
  });
}
