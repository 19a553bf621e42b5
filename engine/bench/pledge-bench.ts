import { performance } from "node:perf_hooks";
import { HOUR_MS } from "../core/margin/margin";
import { tradeAt } from "../core/margin/margin-test-kit";
import { pledgeCore } from "../core/loans/pledge-test-kit";
import type { ExchangeCore } from "../core/exchange/exchange-core";

/**
 * Crypto loans in the core (issue 31; decision 051), measured in one run: the hourly accrual over
 * 100,000 open loans against the same over 1,000, and a price move after which every loan's LTV is
 * compared with its margin call and liquidation lines, likewise (target: each ratio ≤ 150, linear at
 * worst). Both run inside one command: its time is the longest stop the engine makes meanwhile,
 * printed too. `BENCH_LOANS` sets the large book (100,000).
 */
const LOANS = Number(process.env.BENCH_LOANS ?? (process.env.BENCH_QUICK ? 20_000 : 100_000));
const START = Date.UTC(2026, 10, 1, 0, 10, 0);

/** A core with `count` members each owing USDT against BTC (flexible and 7 days, by turns), BTC at 50 000. */
function withLoans(count: number): ExchangeCore {
  const core = pledgeCore("b");
  tradeAt(core, "BTC/USDT", "50000");
  for (let m = 0; m < count; m++) {
    const member = String(m);
    core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: member, asset: "BTC", kind: "funding", amount: "0.1" });
    const borrowed = core.apply({
      type: "pledge.borrow",
      memberId: member,
      productId: m % 2 ? "USDT-BTC-7" : "USDT-BTC-0",
      amount: "2500",
      collateral: "0.1",
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

/** Milliseconds of one accrual tick (every loan charged) and of one LTV watch after a price move. */
function measure(count: number): { accrual: number; watch: number } {
  const core = withLoans(count);
  const accrual = time(() => core.apply({ type: "pledge.tick", at: START + HOUR_MS }));
  tradeAt(core, "BTC/USDT", "48000");
  const watch = time(() => core.apply({ type: "pledge.tick", at: START + HOUR_MS + 5_000 }));
  if (core.pledges.loanCount !== count) throw new Error(`${core.pledges.loanCount} loans, expected ${count}`);
  return { accrual, watch };
}

measure(1_000); // warm-up
const small = measure(1_000);
const large = measure(LOANS);
const n = (x: number) => x.toLocaleString("en");
console.log(`loans: ${n(LOANS)} open crypto loans against ${n(1_000)} (USDT against BTC, flexible and 7 days)`);
console.log(
  `  hourly accrual: ${small.accrual.toFixed(1)} ms at ${n(1_000)}, ${large.accrual.toFixed(1)} ms at ${n(LOANS)}: ratio ${(large.accrual / small.accrual).toFixed(1)} (target ≤ 150)`,
);
console.log(
  `  price move, every LTV checked: ${small.watch.toFixed(1)} ms at ${n(1_000)}, ${large.watch.toFixed(1)} ms at ${n(LOANS)}: ratio ${(large.watch / small.watch).toFixed(1)} (target ≤ 150)`,
);
console.log(`  longest stop of the engine meanwhile (one command): ${Math.max(large.accrual, large.watch).toFixed(1)} ms`);
