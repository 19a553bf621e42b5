import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { compareDecimal } from "#protocol/decimal";
import { endpoints } from "#protocol/endpoints";
import { keyError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { send, textOf } from "./__rule-forms.server";

/*
 * The console's crypto loans page (`loans.tsx`; issue 31, decision 051): its loader and action,
 * apart from the route module so what reads the forms stays on the server (decision 037).
 */

export const LOANS_PAGE = "/ops/loans";

/** What a product's form changes: its rates (hourly fractions), its LTVs (fractions) and its bounds (the loan coin). */
export const PRODUCT_FIELDS = ["hourlyRate", "overdueRate", "initialLtv", "callLtv", "liquidationLtv", "minAmount", "maxAmount"] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];
const SCALE: Record<ProductField, number> = { hourlyRate: 12, overdueRate: 12, initialLtv: 4, callLtv: 4, liquidationLtv: 4, minAmount: 8, maxAmount: 8 };

export interface ProductRefusal {
  productId: string | null;
  error?: string;
  fields?: Partial<Record<ProductField, string>>;
  values?: Partial<Record<ProductField, string>>;
}

/** Every loan product with what it lends now, and whether the operator may change them. */
export function loadLoans(args: LoaderFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops }) => {
    const products = await ops.call(endpoints.opsPledgeProducts);
    return data({ products, mayChange: ops.may("markets.change"), mark: decimalMarkOf(ops.lang) }, { headers: OPS_HEADERS });
  });
}

/**
 * A product's rules: each field as typed in the operator's language, and whether it takes new
 * loans; the engine checks them whole (the LTVs rising, the overdue rate at least the rate). Done:
 * back to the page with a toast; refused: the row's errors, nothing changed.
 */
export function loansAction(args: ActionFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops, request }) => {
    const refuse = (refusal: ProductRefusal, status = 400) => data({ refusal }, { status, headers: OPS_HEADERS });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refuse({ productId: null, error: keyError("ops.errors.invalid") });
    }
    if (!ops.may("markets.change")) return refuse({ productId: null, error: keyError("ops.errors.role_denied") }, 403);
    const productId = textOf(form, "productId") ?? "";
    const product = (await ops.call(endpoints.opsPledgeProducts)).find((p) => p.productId === productId);
    if (!product) return refuse({ productId: null, error: keyError("ops.errors.invalid") });
    const mark = decimalMarkOf(ops.lang);
    const values = Object.fromEntries(PRODUCT_FIELDS.map((f) => [f, textOf(form, f) ?? ""])) as Record<ProductField, string>;
    const fields: Partial<Record<ProductField, string>> = {};
    const read: Partial<Record<ProductField, string>> = {};
    for (const field of PRODUCT_FIELDS) {
      const got = readDecimalInput(values[field], { scale: SCALE[field], mark });
      if (!got.ok) fields[field] = got.error === "required" ? "ops.errors.value_required" : `validation.number.${got.error}`;
      else read[field] = got.value;
    }
    for (const field of ["hourlyRate", "overdueRate"] as const)
      if (read[field] !== undefined && compareDecimal(read[field], "0.01") > 0) fields[field] = "ops.margin.rate_range";
    if (Object.keys(fields).length) return refuse({ productId, fields, values });
    const enabled = form.get("enabled") === "on";
    const now: Record<ProductField, string> = {
      hourlyRate: product.hourlyRate,
      overdueRate: product.overdueHourlyRate,
      initialLtv: product.initialLtv,
      callLtv: product.callLtv,
      liquidationLtv: product.liquidationLtv,
      minAmount: product.minAmount,
      maxAmount: product.maxAmount,
    };
    if (enabled === product.enabled && PRODUCT_FIELDS.every((f) => compareDecimal(read[f]!, now[f]) === 0))
      return refuse({ productId, error: keyError("ops.errors.no_change"), values });
    const body = {
      productId,
      loanCoin: product.loanCoin,
      collateralCoin: product.collateralCoin,
      termDays: product.termDays,
      hourlyRate: read.hourlyRate!,
      overdueRate: read.overdueRate!,
      initialLtv: read.initialLtv!,
      callLtv: read.callLtv!,
      liquidationLtv: read.liquidationLtv!,
      minAmount: read.minAmount!,
      maxAmount: read.maxAmount!,
      enabled,
    };
    const refused = await send(ops, { productId, values }, () => ops.call(endpoints.adminPledgeProduct, { body }));
    if (refused) return refuse(refused);
    return redirectWithToast(request, LOANS_PAGE, { type: "success", key: "ops.loans.saved", values: { product: productId } }, { headers: OPS_HEADERS });
  });
}
