import { sql, type Kysely } from "kysely";
import { KYC_STATUS } from "../../protocol/member";
import { fromMinor, toMinor } from "../../protocol/money";
import { ResultCode } from "../../protocol/result-codes";
import { canonicalDecimal } from "../core/spot/order-history-view";
import type { ChainId } from "../chain/chain-gateway";
import { CHAINS } from "../chain/networks";
import type { DurableCore } from "../journal/durable-core";
import { Refusal } from "../locales/refusal";
import type { MemberService } from "../members/member-service";
import type { Database } from "../store/schema";
import type { AddressBook } from "./address-book";
import { checkDestination } from "./destination";
import type { WithdrawalAnswer, WithdrawalService } from "./withdrawal-service";

/** What a member asks for: the coin, the network and address (with a tag where the network has them), the amount to receive. */
export interface WithdrawalForm {
  coin: string;
  network: string;
  address: string;
  memo?: string;
  amount: string;
  tradePassword: string;
  code: string;
  googleCode?: string;
  idempotencyKey: string;
}

/** The daily limit's window. */
const DAY_MS = 24 * 3600_000;

/**
 * A member's withdrawal request, checked before anything is held (spec §5, issue 12): the coin
 * carried and switched on for the network, the address in the network's format with its
 * checksum, with the whitelist mode on a saved address saved 24 hours ago or more (decision 029),
 * the amount within the coin's decimals and at least the network's minimum, the day's
 * withdrawals within the limit (higher after KYC), then the transaction password, the Google
 * code when bound and a security code. Only then is amount + fee held (WithdrawalService), once
 * per idempotency key: a retried post is answered as the first one was, without asking for the
 * (consumed) code again. One member's requests are checked one at a time, so two at once cannot
 * both fit under the limit.
 */
export class WithdrawalRequests {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly durable: DurableCore,
    private readonly withdrawals: WithdrawalService,
    private readonly members: MemberService,
    private readonly book: AddressBook,
  ) {}

  request(memberId: string, form: WithdrawalForm, now: number): Promise<WithdrawalAnswer> {
    const previous = this.queues.get(memberId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.checkAndPlace(memberId, form, now));
    this.queues.set(memberId, next);
    const done = () => {
      if (this.queues.get(memberId) === next) this.queues.delete(memberId);
    };
    next.then(done, done);
    return next;
  }

  private async checkAndPlace(memberId: string, form: WithdrawalForm, now: number): Promise<WithdrawalAnswer> {
    const { coin, network } = form;
    const { rule, format, memo } = await checkDestination(this.db, form);
    if (!rule.withdraw_enabled) throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.disabled", { coin, network });
    await this.book.refuseUnlisted(memberId, { coin, network, format, address: form.address, memo }, now);

    const scale = this.durable.core.scaleOf(coin);
    // What the chain can send: USDT is kept to 8 decimals here but has 6 on TRC20 and ERC20.
    const onChain = CHAINS[rule.chain as ChainId]?.assets[coin]?.decimals ?? scale;
    let amount: bigint;
    try {
      amount = toMinor(form.amount, Math.min(scale, onChain)) * 10n ** BigInt(Math.max(0, scale - onChain));
    } catch {
      throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.too_precise", { coin, scale: Math.min(scale, onChain) });
    }
    const minimum = toMinor(canonicalDecimal(rule.min_withdraw), scale);
    if (amount < minimum) throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.below_minimum", { coin, min: fromMinor(minimum, scale) });

    // The day's withdrawals of the coin, the member's latest included (the read waits for its rows).
    // NOTE: checked with the passwords and codes, for a key's first post only: a retry is answered
    // as the first post was, although by now that post's own withdrawal counts towards the day.
    const withinDailyLimit = async () => {
      await this.durable.projectedFor(memberId);
      const [today, kyc] = await Promise.all([
        this.db
          .selectFrom("wallet_withdrawal")
          .select(sql<string>`coalesce(sum(amount), 0)::text`.as("sum"))
          .where("member_id", "=", memberId)
          .where("coin", "=", coin)
          .where("state", "not in", ["rejected", "cancelled"])
          .where("created_at", ">", new Date(now - DAY_MS))
          .executeTakeFirstOrThrow(),
        this.db.selectFrom("kyc_submission").select("status").where("member_id", "=", memberId).orderBy("id", "desc").limit(1).executeTakeFirst(),
      ]);
      const limit = toMinor(canonicalDecimal(kyc?.status === KYC_STATUS.approved ? rule.daily_withdraw_limit_kyc : rule.daily_withdraw_limit), scale);
      const used = toMinor(canonicalDecimal(today.sum), scale);
      if (used + amount > limit)
        throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.daily_limit", {
          coin,
          limit: fromMinor(limit, scale),
          left: fromMinor(limit > used ? limit - used : 0n, scale),
        });
    };

    const fee = fromMinor(toMinor(canonicalDecimal(rule.withdraw_fee), scale), scale);
    return this.withdrawals.request(
      memberId,
      { coin, network, address: form.address, ...(memo !== null ? { memo } : {}), amount: fromMinor(amount, scale), fee },
      form.idempotencyKey,
      async () => {
        await withinDailyLimit();
        // The code confirms the destination as it is placed: with the tag on a network that takes
        // one (bound into the code), without a tag another network would drop.
        const { memo: _typed, ...rest } = form;
        await this.members.authorizeWithdrawal(memberId, memo !== null ? { ...rest, memo } : rest, now);
      },
    );
  }
}
