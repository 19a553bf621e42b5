import { fromMinor } from "../../protocol/money";
import { IntervalTask } from "../interval-task";
import type { PledgeService } from "../loans/pledge-service";

/**
 * Simulated borrowers (issue 31, decision 051): on a demo install the simulator's bots take and
 * repay crypto loans now and then, so the loans' records, the pool's interest and the console's
 * figures move like an exchange's. Each turn one bot either borrows (at 30 to 50 % LTV, a random
 * product it has collateral for, deposited once as simulated funds) or repays its oldest loan in
 * full. Off without the simulator; nothing here is a member's.
 */
export class LoanBots {
  private readonly task: IntervalTask;
  private turn = 0;

  constructor(
    private readonly pledge: PledgeService,
    private readonly bots: readonly string[],
    log: (message: string) => void = () => undefined,
  ) {
    this.task = new IntervalTask("loan bots", () => this.step(), log);
  }

  start(intervalMs = 20_000): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One bot's turn: a loan taken (while it has fewer than two) or its oldest repaid. */
  async step(): Promise<void> {
    if (this.bots.length === 0) return;
    const n = ++this.turn;
    const bot = this.bots[n % this.bots.length]!;
    const core = this.pledge.durable.core;
    const funds = this.pledge.durable.funds;
    const open = [...core.pledges.loansOf(bot)].sort((a, b) => a.createdAt - b.createdAt);
    if (open.length >= 2 || (open.length > 0 && Math.random() < 0.4)) {
      const loan = open[0]!;
      const owed = loan.principal + loan.interest;
      const scale = core.scaleOf(core.pledges.productOf(loan).loanAsset);
      const text = (minor: bigint) => fromMinor(minor, scale);
      // The borrowed coin is still in its funding account; the interest comes from simulated funds.
      await funds.deposit(bot, core.pledges.productOf(loan).loanAsset, "funding", text(loan.interest + 1n), `sim-loan-interest:${loan.id}`);
      await this.pledge.repay(bot, loan.id, text(owed), `sim-loan-repay-${loan.id}`);
      return;
    }
    const products = [...core.pledges.products.values()].filter((p) => p.enabled && core.markets.get(`${p.collateralAsset}/${p.loanAsset}`)?.lastPrice);
    if (products.length === 0) return;
    const product = products[Math.floor(Math.random() * products.length)]!;
    const quote = core.pledges.maxLoan(
      product,
      10n ** BigInt(core.scaleOf(product.collateralAsset)),
      core.scaleOf(product.collateralAsset),
      core.scaleOf(product.loanAsset),
    );
    if (!quote || quote <= 0n) return;
    // 1 unit of collateral at 30-50 % LTV (its initial is 50-65 %), in whole loan coins, within the product's bounds.
    const unit = 10n ** BigInt(core.scaleOf(product.loanAsset));
    const share = BigInt(Math.floor((0.46 + Math.random() * 0.3) * 100));
    let amount = ((quote * share) / 100n / unit) * unit;
    if (amount < product.minAmount) return;
    if (amount > product.maxAmount) amount = product.maxAmount;
    await funds.deposit(bot, product.collateralAsset, "funding", "1", `sim-loan-collateral:${bot}:${n}:${Date.now()}`);
    await this.pledge.borrow(bot, { productId: product.id, amount: (amount / unit).toString(), collateral: "1" }, `sim-loan-${bot}-${n}-${Date.now()}`);
  }
}
