import { fromMinor } from "../../protocol/money";
import type { StakeService } from "../earn/stake-service";
import { IntervalTask } from "../interval-task";

/**
 * Simulated stakers (issue 32, decision 052): on a demo install the simulator's bots stake and
 * redeem now and then, so the products' caps fill, the records and the console's figures move like
 * an exchange's. Each turn one bot either stakes (a random enabled product, a few times its
 * minimum, deposited as simulated funds) or, holding three or more stakes (or by chance), redeems
 * its oldest: a flexible one with its interest, a fixed one early, its interest forfeited. Off
 * without the simulator; nothing here is a member's.
 */
export class StakeBots {
  private readonly task: IntervalTask;
  private turn = 0;

  constructor(
    private readonly staking: StakeService,
    private readonly bots: readonly string[],
    log: (message: string) => void = () => undefined,
  ) {
    this.task = new IntervalTask("stake bots", () => this.step(), log);
  }

  start(intervalMs = 25_000): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One bot's turn: a stake taken, or its oldest redeemed. */
  async step(): Promise<void> {
    if (this.bots.length === 0) return;
    const n = this.turn++;
    const bot = this.bots[n % this.bots.length]!;
    const core = this.staking.durable.core;
    const mine = [...core.staking.stakesOf(bot)].sort((a, b) => a.createdAt - b.createdAt);
    if (mine.length >= 3 || (mine.length > 0 && Math.random() < 0.3)) {
      const oldest = mine[0]!;
      await this.staking.redeem(bot, oldest.id, null, `sim-stake-redeem-${oldest.id}`);
      return;
    }
    const products = [...core.staking.products.values()].filter((p) => p.enabled);
    if (products.length === 0) return;
    const product = products[Math.floor(Math.random() * products.length)]!;
    const amount = product.minAmount * BigInt(2 + Math.floor(Math.random() * 20));
    if (amount > product.maxPerMember) return;
    const text = fromMinor(amount, core.scaleOf(product.asset));
    const stamp = `${bot}:${n}:${Date.now()}`;
    await this.staking.durable.funds.deposit(bot, product.asset, "funding", text, `sim-stake-funds:${stamp}`);
    await this.staking.invest(bot, { productId: product.id, amount: text }, `sim-stake-${stamp}`);
  }
}
