import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput, type DecimalMark } from "#protocol/decimal-input";
import { fromMinor, toMinor } from "#protocol/decimal";
import { endpoints } from "#protocol/endpoints";
import type { ContractInfo } from "#protocol/endpoints/contracts";
import { keyError } from "~/lib/forms/form-error";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import { newIdempotencyKey } from "~/services/platform/idempotency.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { send, textOf } from "./__rule-forms.server";

/*
 * The console's contracts page (`contracts.tsx`; issue 30): its loader and action, apart from the
 * route module so what reads the forms stays on the server (decision 037).
 */

export const CONTRACTS_PAGE = "/ops/contracts";

/** The rules a live contract may change, as the rules form names its fields. */
export const CONTRACT_RULE_FIELDS = ["makerFeeBps", "takerFeeBps", "minQty", "maxQty", "priceBandPercent"] as const;
export type ContractRuleField = (typeof CONTRACT_RULE_FIELDS)[number];

export interface ContractRefusal {
  symbol: string | null;
  intent: "halt" | "resume" | "rules" | "insure" | null;
  error?: string;
  fields?: Partial<Record<ContractRuleField, string>>;
  values?: Partial<Record<ContractRuleField, string>>;
}

/** The form's values of a contract's rules as they stand: fees in basis points, the band in percent. */
export function shownRules(info: ContractInfo): Record<ContractRuleField, string> {
  return {
    makerFeeBps: String(toMinor(info.makerFeeRate, 4)),
    takerFeeBps: String(toMinor(info.takerFeeRate, 4)),
    minQty: info.minQty,
    maxQty: info.maxQty,
    priceBandPercent: fromMinor(toMinor(info.priceBand, 10, "down"), 8),
  };
}

/**
 * Every contract with its live state, each settlement coin's insurance fund, fees and uncovered
 * deficit (decision 048; each with a key for its "move fees into the fund" form), whether the
 * operator may change them, and their decimal mark.
 */
export function loadContracts(args: LoaderFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops }) => {
    const [listed, funds] = await Promise.all([ops.call(endpoints.opsContracts), ops.call(endpoints.opsContractFunds)]);
    const contracts = listed.map((one) => ({ ...one, shown: shownRules(one.info) }));
    const keyed = funds.map((f) => ({ ...f, key: newIdempotencyKey() }));
    return data({ contracts, funds: keyed, mayChange: ops.may("markets.change"), mark: decimalMarkOf(ops.lang) }, { headers: OPS_HEADERS });
  });
}

const INTENTS = ["halt", "resume", "rules", "insure"] as const;

type Read<T> = { ok: true; value: T } | { ok: false; error: string };
const whole = (raw: string, max: number, error: string): Read<number> => {
  const text = raw.trim();
  if (text === "") return { ok: false, error: "ops.errors.value_required" };
  if (/^[-−]/.test(text)) return { ok: false, error: "validation.number.negative" };
  return /^\d{1,9}$/.test(text) && Number(text) <= max ? { ok: true, value: Number(text) } : { ok: false, error };
};

/** The band typed as a percent in the operator's language: above 0, at most 50 %, 6 decimals at most. */
function readBand(raw: string, mark: DecimalMark): Read<string> {
  const read = readDecimalInput(raw, { scale: 6, mark });
  if (!read.ok) return { ok: false, error: read.error === "required" ? "ops.errors.value_required" : `validation.number.${read.error}` };
  const minor = toMinor(read.value, 6);
  if (minor <= 0n || minor > 50_000_000n) return { ok: false, error: "ops.contracts.band_range" };
  return { ok: true, value: fromMinor(minor, 8) };
}

type RulesChange = { makerFeeBps?: number; takerFeeBps?: number; minQty?: string; maxQty?: string; priceBand?: string };

/** A rules form read: only what the operator changed from what the form showed, or the fields' errors. */
function readRules(form: FormData, info: ContractInfo, mark: DecimalMark): { ok: true; change: RulesChange } | ContractRefusal {
  const values = formValues(form);
  const maker = whole(values.makerFeeBps ?? "", 1_000, "ops.errors.fee_bps");
  const taker = whole(values.takerFeeBps ?? "", 1_000, "ops.errors.fee_bps");
  const min = whole(values.minQty ?? "", 10_000_000, "ops.contracts.qty_range");
  const max = whole(values.maxQty ?? "", 10_000_000, "ops.contracts.qty_range");
  const band = readBand(values.priceBandPercent ?? "", mark);
  const fields: Partial<Record<ContractRuleField, string>> = {
    ...(!maker.ok && { makerFeeBps: maker.error }),
    ...(!taker.ok && { takerFeeBps: taker.error }),
    ...(!min.ok && { minQty: min.error }),
    ...(!max.ok && { maxQty: max.error }),
    ...(!band.ok && { priceBandPercent: band.error }),
  };
  if (min.ok && max.ok && (min.value < 1 || max.value < min.value)) fields.maxQty = "ops.contracts.qty_order";
  if (!maker.ok || !taker.ok || !min.ok || !max.ok || !band.ok || Object.keys(fields).length)
    return { symbol: info.symbolName, intent: "rules", fields, values };
  const now = shownRules(info);
  const changed = (field: ContractRuleField, value: string) => value !== (textOf(form, `shown.${field}`) ?? now[field]) && value !== now[field];
  const change: RulesChange = {
    ...(changed("makerFeeBps", String(maker.value)) && { makerFeeBps: maker.value }),
    ...(changed("takerFeeBps", String(taker.value)) && { takerFeeBps: taker.value }),
    ...(changed("minQty", String(min.value)) && { minQty: String(min.value) }),
    ...(changed("maxQty", String(max.value)) && { maxQty: String(max.value) }),
    ...(changed("priceBandPercent", fromMinor(toMinor(band.value, 10), 8)) && { priceBand: band.value }),
  };
  if (Object.keys(change).length === 0) return { symbol: info.symbolName, intent: "rules", error: keyError("ops.errors.no_change"), values };
  return { ok: true, change };
}

/**
 * Halts or resumes a contract (new orders refused, cancels and closes still work through the
 * one-key close) or changes its rules: fees, order limits and the price band, from the next order.
 * Done: back to the page with a toast; refused: the page again with the row's error, nothing changed.
 */
export function contractsAction(args: ActionFunctionArgs) {
  return withOperator(args, "markets.read", async ({ ops, request }) => {
    const refuse = (refusal: ContractRefusal, status = 400) => data({ refusal }, { status, headers: OPS_HEADERS });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refuse({ symbol: null, intent: null, error: keyError("ops.errors.invalid") });
    }
    const intent = INTENTS.find((one) => one === form.get("intent")) ?? null;
    if (!intent) return refuse({ symbol: null, intent, error: keyError("ops.errors.invalid") });
    if (!ops.may("markets.change")) return refuse({ symbol: null, intent, error: keyError("ops.errors.role_denied") }, 403);
    if (intent === "insure") return insure(form);
    const posted = textOf(form, "symbol") ?? "";
    const found = (await ops.call(endpoints.opsContracts)).find((one) => one.info.symbolName === posted);
    if (!found) return refuse({ symbol: null, intent, error: keyError("ops.errors.market") });
    const { info } = found;
    const symbol = info.symbolName;
    if (intent === "rules") {
      const rules = readRules(form, info, decimalMarkOf(ops.lang));
      if (!("ok" in rules)) return refuse(rules);
      const refused = await send(ops, { symbol, intent, values: formValues(form) }, () =>
        ops.call(endpoints.adminContractRules, { body: { symbol, ...rules.change } }),
      );
      if (refused) return refuse(refused);
      return redirectWithToast(request, CONTRACTS_PAGE, { type: "success", key: "ops.contracts.rules_done", values: { symbol } }, { headers: OPS_HEADERS });
    }
    /** Fees of a settlement coin into its insurance fund: the amount as typed in the operator's language, once per form key. */
    async function insure(form: FormData) {
      const coin = textOf(form, "coin") ?? "";
      const funds = await ops.call(endpoints.opsContractFunds);
      if (!funds.some((f) => f.coin === coin)) return refuse({ symbol: null, intent: "insure", error: keyError("ops.errors.invalid") });
      const read = readDecimalInput(textOf(form, "amount") ?? "", { scale: 8, mark: decimalMarkOf(ops.lang) });
      if (!read.ok || !/[1-9]/.test(read.value))
        return refuse({
          symbol: coin,
          intent: "insure",
          error: keyError(!read.ok && read.error !== "required" ? `validation.number.${read.error}` : "ops.errors.value_required"),
        });
      const amount = read.value;
      const refused = await send(ops, { symbol: coin, intent: "insure" as const }, () =>
        ops.call(endpoints.adminFundInsurance, { body: { coin, amount, idempotencyKey: textOf(form, "idempotencyKey") ?? "" } }),
      );
      if (refused) return refuse(refused);
      return redirectWithToast(
        request,
        CONTRACTS_PAGE,
        { type: "success", key: "ops.contracts.insured_done", values: { amount, coin } },
        { headers: OPS_HEADERS },
      );
    }
    const halted = intent === "halt";
    if (info.halted === halted) return refuse({ symbol, intent, error: keyError(halted ? "ops.errors.halted_already" : "ops.errors.trading_already") });
    const refused = await send(ops, { symbol, intent }, () => ops.call(endpoints.adminContractRules, { body: { symbol, halted } }));
    if (refused) return refuse(refused);
    return redirectWithToast(
      request,
      CONTRACTS_PAGE,
      { type: "success", key: halted ? "ops.contracts.halted_done" : "ops.contracts.resumed_done", values: { symbol } },
      { headers: OPS_HEADERS },
    );
  });
}

function formValues(form: FormData): Partial<Record<ContractRuleField, string>> {
  return Object.fromEntries(CONTRACT_RULE_FIELDS.map((field) => [field, textOf(form, field) ?? ""]));
}
