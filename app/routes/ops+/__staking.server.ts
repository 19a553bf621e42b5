import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { compareDecimal } from "#protocol/decimal";
import { endpoints } from "#protocol/endpoints";
import { keyError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { send, textOf } from "./__rule-forms.server";

/*
 * The console's staking page (`staking.tsx`; issue 32, decision 052): its loader and action, apart
 * from the route module so what reads the forms stays on the server (decision 037).
 */

export const STAKING_PAGE = "/ops/staking";

/** What a product's form changes: its yearly rate (a fraction, at most 0.18), its cap and its bounds (the coin). */
export const STAKE_FIELDS = ["yearlyRate", "cap", "minAmount", "maxPerMember"] as const;
export type StakeField = (typeof STAKE_FIELDS)[number];
const SCALE: Record<StakeField, number> = { yearlyRate: 6, cap: 8, minAmount: 8, maxPerMember: 8 };

export interface StakeRefusal {
  productId: string | null;
  error?: string;
  fields?: Partial<Record<StakeField, string>>;
  values?: Partial<Record<StakeField, string>>;
}

/** Every staking product with what is staked in it now, and whether the operator may change them. */
export function loadStaking(args: LoaderFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops }) => {
    const products = await ops.call(endpoints.opsStakeProducts);
    return data({ products, mayChange: ops.may("markets.change"), mark: decimalMarkOf(ops.lang) }, { headers: OPS_HEADERS });
  });
}

/**
 * A product's rules: each field as typed in the operator's language, and whether it takes new
 * stakes; the engine checks them whole (never above 18 % a year; the minimum not above the most
 * per member, nor that above the cap). Done: back to the page with a toast; refused: the row's
 * errors, nothing changed.
 */
export function stakingAction(args: ActionFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops, request }) => {
    const refuse = (refusal: StakeRefusal, status = 400) => data({ refusal }, { status, headers: OPS_HEADERS });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refuse({ productId: null, error: keyError("ops.errors.invalid") });
    }
    if (!ops.may("markets.change")) return refuse({ productId: null, error: keyError("ops.errors.role_denied") }, 403);
    const productId = textOf(form, "productId") ?? "";
    const product = (await ops.call(endpoints.opsStakeProducts)).find((p) => p.productId === productId);
    if (!product) return refuse({ productId: null, error: keyError("ops.errors.invalid") });
    const mark = decimalMarkOf(ops.lang);
    const values = Object.fromEntries(STAKE_FIELDS.map((f) => [f, textOf(form, f) ?? ""])) as Record<StakeField, string>;
    const fields: Partial<Record<StakeField, string>> = {};
    const read: Partial<Record<StakeField, string>> = {};
    for (const field of STAKE_FIELDS) {
      const got = readDecimalInput(values[field], { scale: SCALE[field], mark });
      if (!got.ok) fields[field] = got.error === "required" ? "ops.errors.value_required" : `validation.number.${got.error}`;
      else read[field] = got.value;
    }
    if (read.yearlyRate !== undefined && compareDecimal(read.yearlyRate, "0.18") > 0) fields.yearlyRate = "ops.staking.rate_range";
    if (Object.keys(fields).length) return refuse({ productId, fields, values });
    const enabled = form.get("enabled") === "on";
    const now: Record<StakeField, string> = {
      yearlyRate: product.yearlyRate,
      cap: product.cap,
      minAmount: product.minAmount,
      maxPerMember: product.maxPerMember,
    };
    if (enabled === product.enabled && STAKE_FIELDS.every((f) => compareDecimal(read[f]!, now[f]) === 0))
      return refuse({ productId, error: keyError("ops.errors.no_change"), values });
    const body = {
      productId,
      coin: product.coin,
      termDays: product.termDays,
      yearlyRate: read.yearlyRate!,
      cap: read.cap!,
      minAmount: read.minAmount!,
      maxPerMember: read.maxPerMember!,
      enabled,
    };
    const refused = await send(ops, { productId, values }, () => ops.call(endpoints.adminStakeProduct, { body }));
    if (refused) return refuse(refused);
    return redirectWithToast(request, STAKING_PAGE, { type: "success", key: "ops.staking.saved", values: { product: productId } }, { headers: OPS_HEADERS });
  });
}
