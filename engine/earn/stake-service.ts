import type { StakeInvest, StakeProductRules, StakeRedeem, StakeTick } from "../core/exchange/commands";
import type { StakeCode } from "../core/earn/staking";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { OperatorAct } from "../operators/audit";

export type StakeServiceCode = StakeCode | typeof KEY_REUSED;

/**
 * Staking over the durable layer (decision 052): members' stakes and redemptions, the staking
 * loop's ticks and operators' products, each a command through `DurableCore.execute`, answered
 * once journaled; a member's command with an idempotency key is done once, a retry answering the
 * first answer. Its rows and restore are `stakeProduct`; reads of the live state come from memory
 * (`durable.core.staking`).
 */
export class StakeService {
  constructor(readonly durable: DurableCore) {}

  get staking() {
    return this.durable.core.staking;
  }

  /** A new stake; answers its id (the core's) with the code. */
  async invest(
    memberId: string,
    request: { productId: string; amount: string },
    idempotencyKey: string,
  ): Promise<{ code: StakeServiceCode; stakeId?: string }> {
    const command: StakeInvest = { type: "stake.invest", memberId, ...request, at: this.durable.now() };
    const keep = { memberId, key: `stake-invest:${idempotencyKey}`, fingerprint: requestFingerprint({ ...request }) };
    const answerOf = (o: { code: string; events?: ReadonlyArray<{ type: string; stakeId?: string }> }) =>
      o.code === "OK" ? `OK ${o.events?.find((e) => e.type === "stake.invested")?.stakeId ?? ""}` : o.code;
    const answer = await this.durable.once(
      keep,
      async () => answerOf(await this.durable.execute(command, { keep: { ...keep, answer: answerOf } })),
      () => KEY_REUSED,
    );
    const [code, stakeId] = answer.split(" ") as [StakeServiceCode, string | undefined];
    return stakeId ? { code, stakeId } : { code };
  }

  /** A redemption: part of a flexible stake (`amount`), or a whole stake (none). */
  async redeem(memberId: string, stakeId: string, amount: string | null, idempotencyKey: string): Promise<StakeServiceCode> {
    const command: StakeRedeem = { type: "stake.redeem", memberId, stakeId, ...(amount === null ? {} : { amount }), at: this.durable.now() };
    const keep = { memberId, key: `stake-redeem:${idempotencyKey}`, fingerprint: requestFingerprint({ stakeId, amount: amount ?? "all" }) };
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }

  /** The loop's tick: only when a day has begun or a stake has matured since the last (no command otherwise). */
  async tick(at: number = this.durable.now()): Promise<StakeServiceCode> {
    if (at < this.staking.nextDue()) return "OK";
    const command: StakeTick = { type: "stake.tick", at };
    return (await this.durable.execute(command)).code;
  }

  /** An operator's product, new or changed, audited and answered once its row is written. */
  async setProduct(rules: Omit<StakeProductRules, "type">, act: OperatorAct): Promise<{ code: StakeServiceCode; problem?: string }> {
    const before = this.staking.products.get(rules.id);
    const was = before ? { yearlyRate: before.yearlyRate.toString(), cap: before.cap.toString(), enabled: before.enabled } : null;
    const command: StakeProductRules = { type: "stake.product", ...rules };
    const audit = () => act.row(`stake-product:${rules.id}`, was, rules, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: 30_000, audit });
    return outcome.code === "OK" ? { code: "OK" } : { code: outcome.code, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  }
}
