import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { decimalMarkOf } from "#protocol/decimal-input";
import type { PledgeProductView } from "#protocol/endpoints/pledge";
import { pledgeBorrowSchema, pledgeChangeSchema, pledgeQuoteSchema, type LoanOperation } from "~/lib/forms/pledge";
import { numberFormatOf } from "~/lib/number-format";
import type { Engine, MemberEngine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";
import { redirectWithToast } from "../platform/toast.server";

/** Rows of a history page. */
export const LOANS_PAGE_SIZE = 20;
const COIN = /^[A-Z0-9]{1,12}$/;

/** The collateral coins products are offered against, in the products' order. */
function collateralCoins(products: readonly PledgeProductView[]): string[] {
  return [...new Set(products.map((p) => p.collateralCoin))];
}

/**
 * `/pledge-loan` (decision 051), anyone's: the products of one collateral coin (`?coin=`, the
 * first by default) with their rates and LTVs, and the calculator (a GET form: `product`, `amount`,
 * `collateral`) answered by the engine's quote; a figure that is not a number is refused on its field.
 */
export async function loadLoanMarket(engine: Engine) {
  const params = new URL(engine.request.url).searchParams;
  const products = await engine.guard(() => engine.loanMarket.products());
  const coins = collateralCoins(products);
  const askedCoin = params.get("coin") ?? "";
  const askedProduct = params.get("product") ?? "";
  const fromProduct = products.find((p) => p.productId === askedProduct);
  const coin = fromProduct?.collateralCoin ?? (coins.includes(askedCoin) ? askedCoin : (coins[0] ?? null));
  const shown = products.filter((p) => p.collateralCoin === coin);
  const chosen = fromProduct ?? shown[0] ?? null;
  const values = { amount: (params.get("amount") ?? "").slice(0, 40), collateral: (params.get("collateral") ?? "").slice(0, 40) };
  const parsed = pledgeQuoteSchema(decimalMarkOf(engine.lang)).safeParse({ amount: values.amount, collateral: values.collateral });
  const errors: Partial<Record<"amount" | "collateral", string[]>> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) (errors[issue.path[0] as "amount" | "collateral"] ??= []).push(issue.message);
  const figures = parsed.success ? { amount: parsed.data.amount, collateral: parsed.data.collateral } : {};
  const wanted = Boolean(figures.amount || figures.collateral);
  const quote =
    chosen && wanted
      ? await engine.attempt(() =>
          engine.loanMarket.quote(chosen.productId, {
            ...(figures.amount ? { amount: figures.amount } : {}),
            ...(figures.collateral ? { collateral: figures.collateral } : {}),
          }),
        )
      : null;
  return {
    coins,
    coin,
    products: shown,
    chosen,
    values,
    errors: Object.keys(errors).length ? errors : null,
    quote: quote?.ok ? quote.value : null,
    quoteError: quote && !quote.ok ? (quote.message ?? null) : null,
    signedIn: engine.signedIn !== null,
  };
}

/** The member's funding balances of the coins loans use, with each coin's decimals. */
async function fundingOf(engine: MemberEngine) {
  const coins = await engine.guard(() => engine.wallet.coins("funding"));
  return (coin: string) => {
    const found = coins.find((c) => c.coin === coin);
    return { available: found?.available ?? "0", scale: found?.scale ?? 8 };
  };
}

/**
 * `/my-loan/get`: the borrow form for a product (`?product=`, or the first), prefilled from the
 * calculator's figures, with what the member holds of the collateral and a fresh key.
 */
export async function loadBorrowPage(engine: MemberEngine) {
  const params = new URL(engine.request.url).searchParams;
  const [products, funding] = await Promise.all([engine.guard(() => engine.loanMarket.products()), fundingOf(engine)]);
  const chosen = products.find((p) => p.productId === params.get("product")) ?? products[0] ?? null;
  return {
    products: products.map((p) => ({
      ...p,
      loanScale: funding(p.loanCoin).scale,
      collateralScale: funding(p.collateralCoin).scale,
      held: funding(p.collateralCoin).available,
    })),
    chosen: chosen?.productId ?? null,
    values: { amount: (params.get("amount") ?? "").slice(0, 40), collateral: (params.get("collateral") ?? "").slice(0, 40) },
    key: newIdempotencyKey(),
  };
}

/** The borrow form's post: checked at the product's coins' decimals, then one engine call; a loan goes to `/my-loan` with a toast. */
export async function borrowAction(engine: MemberEngine) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const [products, funding] = await Promise.all([engine.guard(() => engine.loanMarket.products()), fundingOf(engine)]);
  const product = products.find((p) => p.productId === formData.get("productId"));
  const schema = pledgeBorrowSchema(funding(product?.loanCoin ?? "").scale, funding(product?.collateralCoin ?? "").scale, decimalMarkOf(lang));
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success" || !product) {
    const key = String(formData.get("idempotencyKey") ?? "") || newIdempotencyKey();
    return data({ result: submission.reply(product ? {} : { formErrors: ["loans.validation.product"] }), key }, { status: 400 });
  }
  const { amount, collateral, idempotencyKey } = submission.value;
  const done = await engine.attempt(() => engine.pledge.borrow(product.productId, amount!, collateral!, idempotencyKey));
  if (!done.ok) return engineRefused(submission, done, { extra: { key: newIdempotencyKey() } });
  const nf = numberFormatOf(lang);
  return redirectWithToast(request, `/my-loan?loan=${encodeURIComponent(done.value.loanId)}`, {
    type: "success",
    key: "loans.borrowed",
    values: { amount: nf.display(amount!, { abbreviate: false }), coin: product.loanCoin },
  });
}

/** `/my-loan`: the member's open loans, each with its own form and key, the one asked for (`?loan=`) first. */
export async function loadMyLoans(engine: MemberEngine) {
  const asked = new URL(engine.request.url).searchParams.get("loan");
  const [page, funding] = await Promise.all([engine.guard(() => engine.pledge.loans("open", 1, 100)), fundingOf(engine)]);
  const loans = [...page.records].sort((a, b) => Number(b.loanId === asked) - Number(a.loanId === asked));
  // A loan asked for that is closed (a notification of its liquidation): said so above the list.
  const closed = asked && !loans.some((l) => l.loanId === asked) ? await engine.attempt(() => engine.pledge.loan(asked)) : null;
  return {
    loans: loans.map((loan) => ({
      ...loan,
      loanScale: funding(loan.loanCoin).scale,
      collateralScale: funding(loan.collateralCoin).scale,
      fundingLoan: funding(loan.loanCoin).available,
      fundingCollateral: funding(loan.collateralCoin).available,
      key: newIdempotencyKey(),
    })),
    asked,
    closed: closed?.ok && closed.value.status !== "open" ? closed.value : null,
  };
}

const DONE: Record<LoanOperation, string> = { repay: "loans.done_repay", add: "loans.done_add", remove: "loans.done_remove" };

/**
 * A loan's form on `/my-loan`: a repayment (the loan coin's decimals) or collateral in or out (the
 * collateral's), one engine call; a refusal comes back on that loan's form with the engine's
 * message (the figures that would pass) and a new key.
 */
export async function myLoansAction(engine: MemberEngine) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  const loanId = String(formData.get("loanId") ?? "").slice(0, 64);
  const operation = formData.get("operation");
  const [loan, funding] = await Promise.all([engine.attempt(() => engine.pledge.loan(loanId)), fundingOf(engine)]);
  const coin = loan.ok ? (operation === "repay" ? loan.value.loanCoin : loan.value.collateralCoin) : "";
  const submission = parseWithZod(formData, { schema: pledgeChangeSchema(COIN.test(coin) ? funding(coin).scale : 8, decimalMarkOf(lang)) });
  if (submission.status !== "success")
    return data({ loanId, result: submission.reply(), key: String(formData.get("idempotencyKey") ?? newIdempotencyKey()) }, { status: 400 });
  if (!loan.ok) return engineRefused(submission, loan, { extra: { loanId, key: newIdempotencyKey() } });
  const { amount, idempotencyKey } = submission.value;
  const op = submission.value.operation;
  const done = await engine.attempt(() =>
    op === "repay" ? engine.pledge.repay(loanId, amount!, idempotencyKey) : engine.pledge.collateral(loanId, amount!, op, idempotencyKey),
  );
  if (!done.ok) return engineRefused(submission, done, { extra: { loanId, key: newIdempotencyKey() } });
  const closed = done.value.status !== "open";
  return redirectWithToast(request, closed ? "/my-loan" : here, {
    type: "success",
    key: closed ? "loans.done_closed" : DONE[op],
    values: { amount: numberFormatOf(lang).display(amount!, { abbreviate: false }), coin },
  });
}

function pageOf(url: URL): number {
  const n = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  return Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/** `/borrowings`: the member's repaid and liquidated loans, a page at a time. */
export async function loadBorrowings(engine: MemberEngine) {
  const page = pageOf(new URL(engine.request.url));
  return { page: await engine.guard(() => engine.pledge.loans("closed", page, LOANS_PAGE_SIZE)) };
}

/** `/borrowings/records`: every fact of the member's loans, newest first, of one loan (`?loan=`) or all. */
export async function loadBorrowRecords(engine: MemberEngine) {
  const url = new URL(engine.request.url);
  const asked = url.searchParams.get("loan");
  const loanId = asked && /^[A-Za-z0-9._-]{1,64}$/.test(asked) ? asked : undefined;
  return { loanId: loanId ?? null, page: await engine.guard(() => engine.pledge.records(pageOf(url), LOANS_PAGE_SIZE, loanId ? { loanId } : {})) };
}
