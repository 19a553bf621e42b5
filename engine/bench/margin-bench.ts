import { performance } from "node:perf_hooks";
import { HOUR_MS } from "../core/margin/margin";
import { marginCore, tradeAt } from "../core/margin/margin-test-kit";
import type { ExchangeCore } from "../core/exchange/exchange-core";

/**
 * Margin in the core (issue 31; decision 050), measured in one run: the hourly accrual over
 * 100,000 open loans against the same over 1,000, and a price move that compares every indebted
 * account with the warning and liquidation lines, likewise (target: each ratio ≤ 150, linear at
 * worst). Both run inside one command, so its time is the longest stop the engine makes meanwhile
 * (orders wait behind it): printed too. `BENCH_LOANS` sets the large book (100,000).
 */
const LOANS = Number(process.env.BENCH_LOANS ?? (process.env.BENCH_QUICK ? 20_000 : 100_000));
const START = Date.UTC(2026, 10, 1, 0, 10, 0);

/** A core with `count` members each owing USDT on cross margin (half also BTC), BTC at 50 000. */
function withLoans(count: number): ExchangeCore {
  const core = marginCore("b");
  core.margin.configurePool({ ...core.margin.pools.get("USDT")!, limit: 10n ** 20n });
  core.margin.configurePool({ ...core.margin.pools.get("BTC")!, limit: 10n ** 20n });
  tradeAt(core, "BTC/USDT", "50000");
  for (let m = 0; m < count; m++) {
    const member = String(m);
    core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: member, asset: "USDT", kind: "funding", amount: "1000" });
    core.apply({ type: "margin.transfer", memberId: member, scope: "all", asset: "USDT", amount: "1000", direction: "in" });
    const borrowed = core.apply({
      type: "margin.borrow",
      memberId: member,
      scope: "all",
      asset: m % 2 ? "BTC" : "USDT",
      amount: m % 2 ? "0.01" : "500",
      at: START,
    });
    if (borrowed.code !== "OK") throw new Error(`borrow refused: ${borrowed.code}`);
  }
  return core;
}

function time(run: () => void): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

/** Milliseconds of one accrual tick (every loan charged) and of one level watch after a price move. */
function measure(count: number): { accrual: number; watch: number } {
  const core = withLoans(count);
  const accrual = time(() => core.apply({ type: "margin.tick", at: START + HOUR_MS }));
  tradeAt(core, "BTC/USDT", "52000");
  const watch = time(() => core.apply({ type: "margin.tick", at: START + HOUR_MS + 5_000 }));
  if (core.margin.loanCount !== count) throw new Error(`${core.margin.loanCount} loans, expected ${count}`);
  return { accrual, watch };
}

measure(1_000); // warm-up
const small = measure(1_000);
const large = measure(LOANS);
const n = (x: number) => x.toLocaleString("en");
console.log(`margin: ${n(LOANS)} open loans against ${n(1_000)} (cross margin, USDT and BTC debts)`);
console.log(
  `  hourly accrual: ${small.accrual.toFixed(1)} ms at ${n(1_000)}, ${large.accrual.toFixed(1)} ms at ${n(LOANS)}: ratio ${(large.accrual / small.accrual).toFixed(1)} (target ≤ 150)`,
);
console.log(
  `  price move, every level checked: ${small.watch.toFixed(1)} ms at ${n(1_000)}, ${large.watch.toFixed(1)} ms at ${n(LOANS)}: ratio ${(large.watch / small.watch).toFixed(1)} (target ≤ 150)`,
);
console.log(`  longest stop of the engine meanwhile (one command): ${Math.max(large.accrual, large.watch).toFixed(1)} ms`);
