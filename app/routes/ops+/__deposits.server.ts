import { randomBytes } from "node:crypto";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { DEPOSIT_STATES, opsDepositQuerySchema } from "#protocol/endpoints/deposits";
import { endpoints } from "#protocol/endpoints";
import { keyError } from "~/lib/forms/form-error";
import { EngineRefusal } from "~/services/engine/api.server";
import { olderPageOf, readListFilter } from "~/services/ops/list-filter.server";
import { OPS_HEADERS, opsRefusalError, withOperator } from "~/services/ops/ops-engine.server";
import { opsCreditSchema, parseWithZod } from "~/services/platform/form-schemas.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { DEPOSITS_PAGE } from "./__deposit-states";

/*
 * The deposits page's loader and action (`deposits.tsx`), apart from the route module so what
 * reads the forms stays on the server (decision 037).
 */

/** The most decimals a typed amount is read with; the engine then holds it to the coin's own. */
const READ_SCALE = 18;

/**
 * Every member's chain deposits, newest first, filtered by member, coin and state (read with the
 * engine's query schema; a value that cannot be one is said so and asks the engine for nothing);
 * the coins for the filter and the credit form, and a fresh reference for a credit when the
 * operator may make one.
 */
export function loadDeposits(args: LoaderFunctionArgs) {
  return withOperator(args, "deposits.read", async ({ ops, request }) => {
    const coins = (await ops.call(endpoints.getRechargeCurrency)).map((c) => c.coin);
    const { values, errors, query, paged } = readListFilter(opsDepositQuerySchema, new URL(request.url).searchParams, ["uid", "coin", "state"], 40);
    if (values.coin && !coins.includes(values.coin)) errors.coin = "ops.deposits.coin_required";
    const page = query && Object.keys(errors).length === 0 ? await ops.call(endpoints.opsDeposits, { query }) : { rows: [], next: null };
    const mayCredit = ops.may("deposits.credit");
    return data(
      {
        values,
        errors,
        page,
        older: olderPageOf(DEPOSITS_PAGE, values, page.next),
        coins,
        states: DEPOSIT_STATES,
        mayCredit,
        reference: mayCredit ? newReference() : null,
        paged,
      },
      { headers: OPS_HEADERS },
    );
  });
}

/** A credit's reference, unique per form shown: a form posted twice credits once. */
function newReference(): string {
  return `ops-${randomBytes(9).toString("base64url")}`;
}

/**
 * Credits a deposit by hand (finance): the form checked, the amount read exactly in the operator's
 * number format, then one engine call. Done: back to the page with a toast. Refused (a field, an
 * unknown member or coin, too many decimals, a reference credited already): the form again with its
 * message, nothing credited.
 */
export function depositsAction(args: ActionFunctionArgs) {
  return withOperator(args, "deposits.read", async ({ ops, request }) => {
    const formData = await request.formData().catch(() => new FormData());
    const submission = parseWithZod(formData, { schema: opsCreditSchema });
    const refuse = (status: number, fields: Record<string, string[]> = {}, formErrors: string[] = []) =>
      data({ result: submission.reply({ fieldErrors: fields, formErrors }) }, { status, headers: OPS_HEADERS });
    if (!ops.may("deposits.credit")) return refuse(403, {}, [keyError("ops.errors.role_denied")]);
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers: OPS_HEADERS });
    const { uid, coin, account, reference } = submission.value;
    const amount = readDecimalInput(submission.value.amount, { scale: READ_SCALE, mark: decimalMarkOf(ops.lang) });
    if (!amount.ok) return refuse(400, { amount: [amount.error === "required" ? "ops.deposits.amount_required" : `validation.number.${amount.error}`] });
    try {
      await ops.call(endpoints.adminDeposit, { body: { uid, coin, account, amount: amount.value, reference } });
    } catch (error) {
      if (!(error instanceof EngineRefusal)) throw error;
      const outcome = error.outcome;
      const reason = outcome.kind === "error" ? outcome.reason : undefined;
      const code = outcome.kind === "error" ? outcome.code : 401;
      if (code === 404) return refuse(400, { uid: ["ops.deposits.member_unknown"] });
      if (reason === "COIN_UNKNOWN") return refuse(400, { coin: ["ops.deposits.coin_required"] });
      if (reason === "AMOUNT_PRECISION") return refuse(400, { amount: ["ops.deposits.precision"] });
      if (code === 409) return refuse(409, {}, [keyError("ops.deposits.credited_already")]);
      return refuse(code >= 400 && code < 500 ? code : 502, {}, [opsRefusalError(error)]);
    }
    return redirectWithToast(
      request,
      DEPOSITS_PAGE,
      { type: "success", key: "ops.deposits.credited", values: { amount: amount.value, coin, uid } },
      { headers: OPS_HEADERS },
    );
  });
}
