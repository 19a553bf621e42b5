import { endpoints } from "../../protocol/endpoints";
import type { LanguageCode } from "../../protocol/languages";
import { addDecimals } from "../../protocol/decimal";
import { fromMinor, toMinor } from "../../protocol/money";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { ResultCode } from "../../protocol/result-codes";
import { STAKE_RATE_SCALE, Staking, type Stake, type StakeProduct } from "../core/earn/staking";
import { StakeReads } from "../earn/stake-reads";
import type { StakeService, StakeServiceCode } from "../earn/stake-service";
import { redemptionView, runningStakeView, stakeProductView } from "../earn/stake-views";
import { KEY_REUSED } from "../journal/idempotency";
import { engineText, requestLanguage, type TextKey } from "../locales/engine-texts";
import { pageOf } from "../store/paging";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

const MESSAGES: Record<Exclude<StakeServiceCode, "OK">, TextKey> = {
  [KEY_REUSED]: "stake.key_reused",
  STAKE_UNKNOWN_PRODUCT: "stake.unknown_product",
  STAKE_PRODUCT_DISABLED: "stake.product_disabled",
  STAKE_UNKNOWN_STAKE: "stake.unknown_stake",
  STAKE_BAD_AMOUNT: "stake.bad_amount",
  STAKE_BELOW_MINIMUM: "stake.below_minimum",
  STAKE_ABOVE_MEMBER_LIMIT: "stake.above_member_limit",
  STAKE_ABOVE_CAP: "stake.above_cap",
  STAKE_INSUFFICIENT: "stake.insufficient",
  STAKE_REDEEM_EXCEEDS: "stake.redeem_exceeds",
  STAKE_FIXED_WHOLE: "stake.fixed_whole",
  STAKE_BAD_RULES: "stake.bad_rules",
};

/**
 * Staking over the API (issue 32, decision 052): the products to anyone; a member's stakes and
 * redemptions through `StakeService`, each once per idempotency key; their running stakes and what
 * a redemption would pay from memory, ended ones and records from the tables; operators' products.
 * A refusal says why in the member's language, with the figures that would pass, and changes
 * nothing; another member's stake answers like a missing one.
 */
export function registerStakeRoutes(api: ApiContext, service: StakeService): void {
  const { app, apiHead } = api;
  const core = service.durable.core;
  const staking = core.staking;
  const reads = new StakeReads(service.durable.db, (memberId) => service.durable.projectedFor(memberId));
  const now = () => service.durable.now();

  const productOf = (productId: string, lang: LanguageCode): StakeProduct => {
    const p = staking.products.get(productId);
    if (!p) throw ApiError.notFound(engineText(lang, "stake.unknown_product"), "STAKE_UNKNOWN_PRODUCT");
    return p;
  };
  const unknownStake = (lang: LanguageCode) => ApiError.notFound(engineText(lang, "stake.unknown_stake"), "STAKE_UNKNOWN_STAKE");
  /** A member's running stake (another member's is as missing). */
  const ownStake = (memberId: string, stakeId: string, lang: LanguageCode): Readonly<Stake> => {
    const stake = staking.stake(stakeId);
    if (!stake || stake.owner !== memberId) throw unknownStake(lang);
    return stake;
  };
  /** The refusal's text, with the figures a member needs to correct the request. */
  const refuse = (code: StakeServiceCode, lang: LanguageCode, p: StakeProduct, memberId: string, stake?: Readonly<Stake>) => {
    const failed = code as Exclude<StakeServiceCode, "OK">;
    const scale = core.scaleOf(p.asset);
    const amount = (v: bigint) => fromMinor(v < 0n ? 0n : v, scale, { trim: true });
    const params: Record<string, string> = {
      coin: p.asset,
      min: amount(p.minAmount),
      max: amount(p.maxPerMember),
      left: amount(p.maxPerMember - staking.stakedIn(p.id, memberId)),
      available: amount(p.cap - staking.stakedIn(p.id)),
      held: stake ? amount(stake.principal) : "0",
    };
    const message = engineText(lang, MESSAGES[failed] ?? "stake.bad_amount", params);
    const reason: RefusalReason = code === KEY_REUSED ? "IDEMPOTENCY_KEY_REUSED" : failed === KEY_REUSED ? "VALIDATION" : failed;
    if (code === KEY_REUSED) return new ApiError(ResultCode.CONFLICT, message, reason);
    return failed === "STAKE_UNKNOWN_STAKE" || failed === "STAKE_UNKNOWN_PRODUCT" ? ApiError.notFound(message, reason) : ApiError.badRequest(message, reason);
  };
  const takeOf = (stake: Readonly<Stake>, text: string | undefined, lang: LanguageCode): bigint => {
    if (text === undefined) return stake.principal;
    try {
      return toMinor(text, core.scaleOf(staking.productOf(stake).asset));
    } catch {
      throw ApiError.badRequest(engineText(lang, "stake.bad_amount"), "STAKE_BAD_AMOUNT");
    }
  };

  registerEndpoint(app, apiHead, endpoints.stakeProducts, async ({ query }) =>
    [...staking.products.values()].filter((p) => p.enabled && (query.coin === undefined || p.asset === query.coin)).map((p) => stakeProductView(core, p)),
  );

  registerEndpoint(app, apiHead, endpoints.stakeCoins, async () => {
    const coins = new Map<string, { best: bigint; terms: Set<number> }>();
    for (const p of staking.products.values()) {
      if (!p.enabled) continue;
      const c = coins.get(p.asset) ?? { best: 0n, terms: new Set<number>() };
      if (p.yearlyRate > c.best) c.best = p.yearlyRate;
      c.terms.add(p.termDays);
      coins.set(p.asset, c);
    }
    return [...coins].map(([coin, c]) => ({
      coin,
      bestYearlyRate: fromMinor(c.best, STAKE_RATE_SCALE, { trim: true }),
      terms: [...c.terms].sort((a, b) => a - b),
    }));
  });

  registerEndpoint(app, apiHead, endpoints.stakeProduct, async ({ params, request }) =>
    stakeProductView(core, productOf(params.productId, requestLanguage(request.headers))),
  );

  memberEndpoint(api, endpoints.stakeInvest, async ({ body, memberId, lang }) => {
    const p = productOf(body.productId, lang);
    const { code, stakeId } = await service.invest(memberId, { productId: body.productId, amount: body.amount }, body.idempotencyKey);
    if (code !== "OK") throw refuse(code, lang, p, memberId);
    const stake = staking.stake(stakeId!);
    if (stake) return runningStakeView(core, stake, now());
    // A retry after the stake already ended answers what the key did, from the tables.
    const ended = (await reads.endedStakes(memberId, undefined, { pageNo: 1, pageSize: 100 })).records.find((s) => s.stakeId === stakeId);
    if (!ended) throw unknownStake(lang);
    return ended;
  });

  memberEndpoint(api, endpoints.stakePreview, async ({ params, query, memberId, lang }) => {
    const stake = ownStake(memberId, params.stakeId, lang);
    const take = takeOf(stake, query.amount, lang);
    const problem = Staking.redemptionProblem(stake, take);
    if (problem) throw refuse(problem, lang, staking.productOf(stake), memberId, stake);
    return redemptionView(core, stake, take, now());
  });

  memberEndpoint(api, endpoints.stakeApply, async ({ body, memberId, lang }) => {
    const before = staking.stake(body.stakeId);
    const own = before && before.owner === memberId ? before : undefined;
    // What it pays, figured just before (the command runs at the engine's next instant: a few microunits of interest at most apart).
    const expected = own ? redemptionView(core, own, takeOf(own, body.amount, lang), now()) : null;
    const code = await service.redeem(memberId, body.stakeId, body.amount ?? null, body.idempotencyKey);
    if (code !== "OK") {
      if (!own) throw unknownStake(lang);
      throw refuse(code, lang, staking.productOf(own), memberId, own);
    }
    if (expected) return expected;
    // A retry of a redemption already done: what its record says.
    const record = (await reads.records(memberId, {}, { pageNo: 1, pageSize: 100 })).records.find((r) => r.stakeId === body.stakeId && r.kind !== "invest");
    if (!record) throw unknownStake(lang);
    return {
      stakeId: body.stakeId,
      coin: record.coin,
      principal: record.principal,
      interest: record.interest,
      forfeited: record.forfeited,
      payout: addDecimals(record.principal, record.interest),
      early: record.kind === "early",
      closes: !staking.stake(body.stakeId),
    };
  });

  memberEndpoint(api, endpoints.memberStakes, async ({ params, query, memberId }) => {
    const paging = { pageNo: params.pageNo, pageSize: params.pageSize };
    if (params.status === "ended") return reads.endedStakes(memberId, query.coin, paging);
    const running = [...staking.stakesOf(memberId)]
      .filter((s) => query.coin === undefined || staking.productOf(s).asset === query.coin)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    const start = (paging.pageNo - 1) * paging.pageSize;
    const at = now();
    return pageOf(
      running.slice(start, start + paging.pageSize).map((s) => runningStakeView(core, s, at)),
      running.length,
      paging,
    );
  });

  memberEndpoint(api, endpoints.stakeOutstanding, async ({ memberId }) => {
    const at = now();
    const coins = new Map<string, { principal: bigint; interest: bigint; stakes: number }>();
    for (const s of staking.stakesOf(memberId)) {
      const asset = staking.productOf(s).asset;
      const c = coins.get(asset) ?? { principal: 0n, interest: 0n, stakes: 0 };
      c.principal += s.principal;
      c.interest += s.interest + staking.pendingInterest(s, at);
      c.stakes++;
      coins.set(asset, c);
    }
    const maturing = [...staking.stakesOf(memberId)]
      .filter((s) => s.maturesAt !== null)
      .sort((a, b) => a.maturesAt! - b.maturesAt! || (a.id < b.id ? -1 : 1))
      .slice(0, 20);
    return {
      coins: [...coins].map(([coin, c]) => ({
        coin,
        principal: fromMinor(c.principal, core.scaleOf(coin), { trim: true }),
        interest: fromMinor(c.interest, core.scaleOf(coin), { trim: true }),
        stakes: c.stakes,
      })),
      maturing: maturing.map((s) => runningStakeView(core, s, at)),
    };
  });

  memberEndpoint(api, endpoints.stakeRecords, async ({ params, query, memberId }) =>
    reads.records(
      memberId,
      { ...(query.kind !== undefined ? { kind: query.kind } : {}), ...(query.coin !== undefined ? { coin: query.coin } : {}) },
      { pageNo: params.pageNo, pageSize: params.pageSize },
    ),
  );

  operatorEndpoint(api, endpoints.opsStakeProducts, async () => {
    const running = new Map<string, number>();
    for (const s of staking.allStakes()) running.set(s.productId, (running.get(s.productId) ?? 0) + 1);
    return [...staking.products.values()].map((p) => ({ ...stakeProductView(core, p), runningStakes: running.get(p.id) ?? 0 }));
  });

  operatorEndpoint(api, endpoints.adminStakeProduct, async ({ body, act }) => {
    const outcome = await service.setProduct(
      {
        id: body.productId,
        asset: body.coin,
        termDays: body.termDays,
        yearlyRate: body.yearlyRate,
        cap: body.cap,
        minAmount: body.minAmount,
        maxPerMember: body.maxPerMember,
        enabled: body.enabled,
      },
      act,
    );
    if (outcome.code !== "OK") throw ApiError.badRequest(outcome.problem ?? engineText("en", MESSAGES[outcome.code] ?? "stake.bad_rules"), "STAKE_BAD_RULES");
    return stakeProductView(core, staking.products.get(body.productId)!);
  });
}
