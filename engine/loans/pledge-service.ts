import type { PledgeBorrow, PledgeCollateral, PledgeProductRules, PledgeRepay, PledgeTick } from "../core/exchange/commands";
import type { PledgeCode } from "../core/loans/pledge-loans";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { OperatorAct } from "../operators/audit";

export type PledgeServiceCode = PledgeCode | typeof KEY_REUSED;

/**
 * Crypto loans over the durable layer (decision 051): members' borrows, repayments and collateral
 * changes, the loan loop's ticks and operators' products, each a command through
 * `DurableCore.execute`, answered once journaled; a member's command with an idempotency key is
 * done once, a retry answering the first answer. Its rows and restore are `pledgeProduct`; reads of
 * the live state come from memory (`durable.core.pledges`).
 */
export class PledgeService {
  constructor(readonly durable: DurableCore) {}

  get pledges() {
    return this.durable.core.pledges;
  }

  /** A new loan; answers its id (the core's) with the code. */
  async borrow(
    memberId: string,
    request: { productId: string; amount: string; collateral: string },
    idempotencyKey: string,
  ): Promise<{ code: PledgeServiceCode; loanId?: string }> {
    const command: PledgeBorrow = { type: "pledge.borrow", memberId, ...request, at: this.durable.now() };
    const keep = { memberId, key: `pledge-borrow:${idempotencyKey}`, fingerprint: requestFingerprint({ ...request }) };
    const answer = await this.durable.once(
      keep,
      async () => {
        const outcome = await this.durable.execute(command, {
          keep: {
            ...keep,
            answer: (o) => (o.code === "OK" ? `OK ${o.events.find((e) => e.type === "pledge.borrowed")?.loanId ?? ""}` : o.code),
          },
        });
        return outcome.code === "OK" ? `OK ${outcome.events.find((e) => e.type === "pledge.borrowed")?.loanId ?? ""}` : outcome.code;
      },
      () => KEY_REUSED,
    );
    const [code, loanId] = answer.split(" ") as [PledgeServiceCode, string | undefined];
    return loanId ? { code, loanId } : { code };
  }

  async repay(memberId: string, loanId: string, amount: string, idempotencyKey: string): Promise<PledgeServiceCode> {
    const command: PledgeRepay = { type: "pledge.repay", memberId, loanId, amount };
    return this.keyed(memberId, `pledge-repay:${idempotencyKey}`, { loanId, amount }, command);
  }

  async changeCollateral(memberId: string, loanId: string, amount: string, direction: "add" | "remove", idempotencyKey: string): Promise<PledgeServiceCode> {
    const command: PledgeCollateral = { type: "pledge.collateral", memberId, loanId, amount, direction };
    return this.keyed(memberId, `pledge-collateral:${idempotencyKey}`, { loanId, amount, direction }, command);
  }

  /** The loop's tick: interest for every hour begun, LTVs watched, liquidations. No loan: no command. */
  async tick(at: number = this.durable.now()): Promise<PledgeServiceCode> {
    if (this.pledges.loanCount === 0) return "OK";
    const command: PledgeTick = { type: "pledge.tick", at };
    return (await this.durable.execute(command)).code;
  }

  /** An operator's product, new or changed, audited and answered once its row is written. */
  async setProduct(rules: Omit<PledgeProductRules, "type">, act: OperatorAct): Promise<{ code: PledgeServiceCode; problem?: string }> {
    const before = this.pledges.products.get(rules.id);
    const was = before ? { hourlyRate: before.hourlyRate.toString(), initialLtv: before.initialLtv.toString(), enabled: before.enabled } : null;
    const command: PledgeProductRules = { type: "pledge.product", ...rules };
    const audit = () => act.row(`pledge-product:${rules.id}`, was, rules, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: 30_000, audit });
    return outcome.code === "OK" ? { code: "OK" } : { code: outcome.code, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  }

  private async keyed(memberId: string, key: string, request: Record<string, string>, command: PledgeRepay | PledgeCollateral): Promise<PledgeServiceCode> {
    const keep = { memberId, key, fingerprint: requestFingerprint(request) };
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }
}
