import { fromMinor } from "../../protocol/money";
import type { SubscriptionService } from "../earn/sub-service";
import { IntervalTask } from "../interval-task";

/**
 * Simulated subscribers (issue 32, decision 053): on a demo install the simulator's bots subscribe
 * now and then to the projects whose windows are open, a few to a few hundred lots each, paid from
 * simulated funds, so a project's asked total moves and the short demo round ends oversubscribed
 * (an allotment pro rata, returns). Off without the simulator; nothing here is a member's.
 */
export class SubscriptionBots {
  private readonly task: IntervalTask;
  private turn = 0;

  constructor(
    private readonly service: SubscriptionService,
    private readonly bots: readonly string[],
    log: (message: string) => void = () => undefined,
  ) {
    this.task = new IntervalTask("subscription bots", () => this.step(), log);
  }

  start(intervalMs = 15_000): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One bot's turn: a subscription to an open project, within what it may still ask. */
  async step(at = this.service.durable.now()): Promise<void> {
    if (this.bots.length === 0) return;
    const n = this.turn++;
    const bot = this.bots[n % this.bots.length]!;
    const core = this.service.durable.core;
    const open = [...core.subscriptions.projects.values()].filter((p) => p.allottedAt === null && p.startAt <= at && at < p.endAt);
    if (open.length === 0) return;
    const p = open[Math.floor(Math.random() * open.length)]!;
    const left = p.maxPerMember - core.subscriptions.requestedIn(p.id, bot);
    // A short round fills fast: its asks are up to its most per member, so it ends oversubscribed.
    const lots = BigInt(1 + Math.floor(Math.random() * 300)) * (p.endAt - p.startAt < 86_400_000 ? 20n : 1n);
    const quantity = p.minPerMember + lots * p.lot > left ? left : p.minPerMember + lots * p.lot;
    if (quantity < p.minPerMember) return;
    const pay = fromMinor((quantity / p.lot) * p.lotPrice, core.scaleOf(p.quoteAsset));
    const stamp = `${bot}:${n}:${at}`;
    await this.service.durable.funds.deposit(bot, p.quoteAsset, "funding", pay, `sim-sub-funds:${stamp}`);
    await this.service.subscribe(bot, { projectId: p.id, quantity: fromMinor(quantity, core.scaleOf(p.asset)) }, `sim-sub-${stamp}`);
  }
}
