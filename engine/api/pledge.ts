import { endpoints } from "../../protocol/endpoints";
import type { LanguageCode } from "../../protocol/languages";
import { fromMinor, toMinor } from "../../protocol/money";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";
import { LTV_SCALE, type PledgeLoan, type PledgeProduct } from "../core/loans/pledge-loans";
import { KEY_REUSED } from "../journal/idempotency";
import { engineText, requestLanguage, type TextKey } from "../locales/engine-texts";
import { PledgeReads } from "../loans/pledge-reads";
import type { PledgeService, PledgeServiceCode } from "../loans/pledge-service";
import { closedLoanView, openLoanView, productView, quoteView } from "../loans/pledge-views";
import { pageOf } from "../store/paging";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<PledgeServiceCode, "OK">, TextKey> = {
  [KEY_REUSED]: "pledge.key_reused",
  PLEDGE_UNKNOWN_PRODUCT: "pledge.unknown_product",
  PLEDGE_PRODUCT_DISABLED: "pledge.product_disabled",
  PLEDGE_UNKNOWN_LOAN: "pledge.unknown_loan",
  PLEDGE_BAD_AMOUNT: "pledge.bad_amount",
  PLEDGE_BELOW_MINIMUM: "pledge.below_minimum",
  PLEDGE_ABOVE_MAXIMUM: "pledge.above_maximum",
  PLEDGE_NO_PRICE: "pledge.no_price",
  PLEDGE_LTV_TOO_HIGH: "pledge.ltv_too_high",
  PLEDGE_INSUFFICIENT: "pledge.insufficient",
  PLEDGE_REPAY_EXCEEDS: "pledge.repay_exceeds",
  PLEDGE_BAD_RULES: "pledge.bad_rules",
};

/**
 * Crypto loans over the API (issue 31, decision 051): the products and the calculator to anyone;
 * a member's borrows, repayments and collateral changes through `PledgeService`, each once per
 * idempotency key; their open loans from memory, closed ones and records from the tables;
 * operators' products. A refusal says why in the member's language, with the figures that would
 * pass, and changes nothing; another member's loan answers like a missing one.
 */
export function registerPledgeRoutes(api: ApiContext, service: PledgeService): void {
  const { app, apiHead } = api;
  const core = service.durable.core;
  const pledges = core.pledges;
  const reads = new PledgeReads(service.durable.db, (memberId) => service.durable.projectedFor(memberId));
  const now = () => service.durable.now();
  const stamp = () => new Date(now()).toISOString();

  const productOf = (productId: string, lang: LanguageCode): PledgeProduct => {
    const p = pledges.products.get(productId);
    if (!p) throw ApiError.notFound(engineText(lang, "pledge.unknown_product"), "PLEDGE_UNKNOWN_PRODUCT");
    return p;
  };
  const minorOr = (text: string | undefined, scale: number, lang: LanguageCode): bigint | null => {
    if (text === undefined) return null;
    try {
      return toMinor(text, scale);
    } catch {
      throw ApiError.badRequest(engineText(lang, "pledge.bad_amount"), "PLEDGE_BAD_AMOUNT");
    }
  };
  const unknownLoan = (lang: LanguageCode) => ApiError.notFound(engineText(lang, "pledge.unknown_loan"), "PLEDGE_UNKNOWN_LOAN");
  /** A member's open loan (another member's is as missing). */
  const ownLoan = (memberId: string, loanId: string, lang: LanguageCode): Readonly<PledgeLoan> => {
    const loan = pledges.loan(loanId);
    if (!loan || loan.owner !== memberId) throw unknownLoan(lang);
    return loan;
  };
  /** The refusal's text, with the figures a member needs to correct the request. */
  const refuse = (
    code: PledgeServiceCode,
    lang: LanguageCode,
    p: PledgeProduct,
    figures: { collateral?: bigint | null; loan?: Readonly<PledgeLoan> | null; removing?: boolean },
  ) => {
    const failed = code as Exclude<PledgeServiceCode, "OK">;
    const ls = core.scaleOf(p.loanAsset);
    const text = (key: TextKey, params: Record<string, string>) => engineText(lang, key, params);
    const params: Record<string, string> = {
      coin: failed === "PLEDGE_INSUFFICIENT" && figures.removing === undefined && figures.loan === undefined ? p.collateralAsset : p.loanAsset,
      min: fromMinor(p.minAmount, ls, { trim: true }),
      max: fromMinor(p.maxAmount, ls, { trim: true }),
      ltv: fromMinor(p.initialLtv * 100n, LTV_SCALE, { trim: true }),
    };
    let key = MESSAGES[failed] ?? "pledge.bad_amount";
    if (failed === "PLEDGE_LTV_TOO_HIGH" && figures.removing && figures.loan) {
      key = "pledge.remove_too_much";
      params.coin = p.collateralAsset;
      params.max = openLoanView(core, figures.loan, now(), stamp()).removable;
    } else if (failed === "PLEDGE_LTV_TOO_HIGH" && figures.collateral != null) {
      const most = quoteView(core, p, null, figures.collateral).maxAmount;
      params.max = most ?? "0";
    } else if (failed === "PLEDGE_NO_PRICE") params.coin = p.collateralAsset;
    else if (failed === "PLEDGE_INSUFFICIENT" && figures.removing !== undefined) params.coin = p.collateralAsset;
    if (figures.loan) params.owed = fromMinor(figures.loan.principal + figures.loan.interest, ls, { trim: true });
    const message = text(key, params);
    const reason: RefusalReason = code === KEY_REUSED ? "IDEMPOTENCY_KEY_REUSED" : failed === KEY_REUSED ? "VALIDATION" : failed;
    if (code === KEY_REUSED) return new ApiError(ResultCode.CONFLICT, message, reason);
    return failed === "PLEDGE_UNKNOWN_LOAN" || failed === "PLEDGE_UNKNOWN_PRODUCT" ? ApiError.notFound(message, reason) : ApiError.badRequest(message, reason);
  };
  /** A loan as it stands now: open from memory, closed from its row (once projected). */
  const loanView = async (memberId: string, loanId: string, lang: LanguageCode) => {
    const open = pledges.loan(loanId);
    if (open && open.owner === memberId) return openLoanView(core, open, now(), stamp());
    const row = await reads.loan(memberId, loanId);
    if (!row) throw unknownLoan(lang);
    return row.status === "open" ? openLoanView(core, ownLoan(memberId, loanId, lang), now(), stamp()) : closedLoanView(core, row);
  };

  registerEndpoint(app, apiHead, endpoints.pledgeProducts, async () =>
    [...pledges.products.values()].filter((p) => p.enabled).map((p) => productView(core, p)),
  );

  registerEndpoint(app, apiHead, endpoints.pledgeQuote, async ({ query, request }) => {
    const lang = requestLanguage(request.headers);
    const p = productOf(query.productId, lang);
    return quoteView(core, p, minorOr(query.amount, core.scaleOf(p.loanAsset), lang), minorOr(query.collateral, core.scaleOf(p.collateralAsset), lang));
  });

  memberEndpoint(api, endpoints.pledgeBorrow, async ({ body, memberId, lang }) => {
    const p = productOf(body.productId, lang);
    const collateral = minorOr(body.collateral, core.scaleOf(p.collateralAsset), lang);
    const { code, loanId } = await service.borrow(
      memberId,
      { productId: body.productId, amount: body.amount, collateral: body.collateral },
      body.idempotencyKey,
    );
    if (code !== "OK") throw refuse(code, lang, p, { collateral });
    return loanView(memberId, loanId!, lang);
  });

  memberEndpoint(api, endpoints.pledgeRepay, async ({ body, memberId, lang }) => {
    const before = pledges.loan(body.loanId);
    const code = await service.repay(memberId, body.loanId, body.amount, body.idempotencyKey);
    if (code !== "OK") {
      if (!before || before.owner !== memberId) throw unknownLoan(lang);
      throw refuse(code, lang, pledges.productOf(before), { loan: before });
    }
    return loanView(memberId, body.loanId, lang);
  });

  memberEndpoint(api, endpoints.pledgeCollateral, async ({ body, memberId, lang }) => {
    const before = pledges.loan(body.loanId);
    const code = await service.changeCollateral(memberId, body.loanId, body.amount, body.direction, body.idempotencyKey);
    if (code !== "OK") {
      if (!before || before.owner !== memberId) throw unknownLoan(lang);
      throw refuse(code, lang, pledges.productOf(before), { loan: before, removing: body.direction === "remove" });
    }
    return loanView(memberId, body.loanId, lang);
  });

  memberEndpoint(api, endpoints.pledgeLoans, async ({ params, memberId }) => {
    const paging = { pageNo: params.pageNo, pageSize: params.pageSize };
    if (params.status === "closed") {
      const page = await reads.closedLoans(memberId, paging);
      return { ...page, records: page.records.map((row) => closedLoanView(core, row)) };
    }
    const open = [...pledges.loansOf(memberId)].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    const start = (paging.pageNo - 1) * paging.pageSize;
    const at = stamp();
    return pageOf(
      open.slice(start, start + paging.pageSize).map((loan) => openLoanView(core, loan, now(), at)),
      open.length,
      paging,
    );
  });

  memberEndpoint(api, endpoints.pledgeLoan, async ({ params, memberId, lang }) => loanView(memberId, params.loanId, lang));

  memberEndpoint(api, endpoints.pledgeRecords, async ({ params, query, memberId }) =>
    reads.records(
      memberId,
      { ...(query.loanId !== undefined ? { loanId: query.loanId } : {}), ...(query.kind !== undefined ? { kind: query.kind } : {}) },
      { pageNo: params.pageNo, pageSize: params.pageSize },
    ),
  );

  operatorEndpoint(api, endpoints.opsPledgeProducts, async () =>
    [...pledges.products.values()].map((p) => {
      let lent = 0n;
      let openLoans = 0;
      for (const loan of pledges.allLoans())
        if (loan.productId === p.id) {
          lent += loan.principal;
          openLoans++;
        }
      return { ...productView(core, p), openLoans, lent: fromMinor(lent, core.scaleOf(p.loanAsset), { trim: true }) };
    }),
  );

  operatorEndpoint(api, endpoints.adminPledgeProduct, async ({ body, act }) => {
    const outcome = await service.setProduct(
      {
        id: body.productId,
        loanAsset: body.loanCoin,
        collateralAsset: body.collateralCoin,
        termDays: body.termDays,
        hourlyRate: body.hourlyRate,
        overdueRate: body.overdueRate,
        initialLtv: body.initialLtv,
        callLtv: body.callLtv,
        liquidationLtv: body.liquidationLtv,
        minAmount: body.minAmount,
        maxAmount: body.maxAmount,
        enabled: body.enabled,
      },
      act,
    );
    if (outcome.code !== "OK") throw ApiError.badRequest(outcome.problem ?? engineText("en", MESSAGES[outcome.code] ?? "pledge.bad_rules"), "PLEDGE_BAD_RULES");
    return productView(core, pledges.products.get(body.productId)!);
  });
}
