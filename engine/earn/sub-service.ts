import type { ReturnApply, ReturnPay, Subscribe, SubscriptionProjectRules, SubscriptionTick } from "../core/exchange/commands";
import type { SubscriptionCode } from "../core/earn/subscriptions";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { OperatorAct } from "../operators/audit";

export type SubscriptionServiceCode = SubscriptionCode | typeof KEY_REUSED;

/**
 * New-coin and ETF subscriptions over the durable layer (decision 053): members' subscriptions and
 * return applications (each once per idempotency key), the loop's ticks, operators' projects and
 * payments, each a command through `DurableCore.execute`. Rows and restore are
 * `subscriptionProduct`; live reads come from memory (`durable.core.subscriptions`).
 */
export class SubscriptionService {
  constructor(readonly durable: DurableCore) {}

  get subscriptions() {
    return this.durable.core.subscriptions;
  }

  /** A subscription; answers its id with the code. */
  async subscribe(
    memberId: string,
    request: { projectId: string; quantity: string },
    idempotencyKey: string,
  ): Promise<{ code: SubscriptionServiceCode; subscriptionId?: string }> {
    const command: Subscribe = { type: "subscription.subscribe", memberId, ...request, at: this.durable.now() };
    const keep = { memberId, key: `subscribe:${idempotencyKey}`, fingerprint: requestFingerprint({ ...request }) };
    const answerOf = (o: { code: string; events?: ReadonlyArray<{ type: string; subscriptionId?: string }> }) =>
      o.code === "OK" ? `OK ${o.events?.find((e) => e.type === "subscription.subscribed")?.subscriptionId ?? ""}` : o.code;
    const answer = await this.durable.once(
      keep,
      async () => answerOf(await this.durable.execute(command, { keep: { ...keep, answer: answerOf } })),
      () => KEY_REUSED,
    );
    const [code, subscriptionId] = answer.split(" ") as [SubscriptionServiceCode, string | undefined];
    return subscriptionId ? { code, subscriptionId } : { code };
  }

  /** The member's application for every return kept for them. */
  async applyForReturn(memberId: string, idempotencyKey: string): Promise<SubscriptionServiceCode> {
    const command: ReturnApply = { type: "subscription.return_apply", memberId, at: this.durable.now() };
    const keep = { memberId, key: `return-apply:${idempotencyKey}`, fingerprint: requestFingerprint({ apply: "all" }) };
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }

  /** The loop's tick: only when a window has ended unallotted or settlements wait (no command otherwise). */
  async tick(at: number = this.durable.now()): Promise<SubscriptionServiceCode> {
    if (at < this.subscriptions.nextDue()) return "OK";
    const command: SubscriptionTick = { type: "subscription.tick", at };
    return (await this.durable.execute(command)).code;
  }

  /** An operator's project, new or changed before its window, audited and answered once its row is written. */
  async setProject(rules: Omit<SubscriptionProjectRules, "type" | "at">, act: OperatorAct): Promise<{ code: SubscriptionServiceCode; problem?: string }> {
    const before = this.subscriptions.projects.get(rules.id);
    const was = before ? { price: before.price.toString(), supply: before.supply.toString(), startAt: before.startAt, endAt: before.endAt } : null;
    const command: SubscriptionProjectRules = { type: "subscription.project", ...rules, at: this.durable.now() };
    const audit = () => act.row(`subscription-project:${rules.id}`, was, rules, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: 30_000, audit });
    return outcome.code === "OK" ? { code: "OK" } : { code: outcome.code, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  }

  /** An operator pays a return application, audited. */
  async payReturn(applicationId: string, act: OperatorAct): Promise<SubscriptionServiceCode> {
    const command: ReturnPay = { type: "subscription.return_pay", applicationId };
    const audit = () => act.row(`return-application:${applicationId}`, { status: "pending" }, { status: "paid" }, this.durable.now());
    return (await this.durable.execute(command, { waitProjected: 30_000, audit })).code;
  }
}
