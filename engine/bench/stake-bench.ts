import { performance } from "node:perf_hooks";
import { DAY_MS, MATURITIES_PER_TICK } from "../core/earn/staking";
import { stakeProduct, stakingCore } from "../core/earn/staking-test-kit";
import type { ExchangeCore } from "../core/exchange/exchange-core";

/**
 * Staking in the core (issue 32; decision 052), measured in one run: the daily accrual (each
 * running stake credited its day's interest, a ledger transfer each) over 100,000 stakes against
 * the same over 1,000, and a day on which every fixed stake matures and is paid, likewise (target:
 * each ratio ≤ 150, linear at worst). Each runs inside one command: its time is the longest stop
 * the engine makes meanwhile, printed too. `BENCH_STAKES` sets the large book (100,000).
 */
const STAKES = Number(process.env.BENCH_STAKES ?? (process.env.BENCH_QUICK ? 20_000 : 100_000));
const START = Date.UTC(2026, 10, 1, 9, 10, 0);

/** A core with `count` members each holding one USDT stake (flexible and 7 days, by turns). */
function withStakes(count: number): ExchangeCore {
  const core = stakingCore("b");
  // Caps large enough for the whole book.
  for (const term of [0, 7]) core.apply({ ...stakeProduct("USDT", term), cap: "1000000000" });
  for (let m = 0; m < count; m++) {
    const member = String(m);
    core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: member, asset: "USDT", kind: "funding", amount: "1000" });
    const staked = core.apply({ type: "stake.invest", memberId: member, productId: m % 2 ? "USDT-7" : "USDT-0", amount: "1000", at: START });
    if (staked.code !== "OK") throw new Error(`stake refused: ${staked.code}`);
  }
  return core;
}

function time(run: () => void): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

/**
 * Milliseconds of one day's accrual (every stake credited), of the first tick of the day the 7-day
 * stakes mature (six days credited, at most MATURITIES_PER_TICK paid), and of all the ticks that
 * pay the rest (half the book), with how many ticks that took.
 */
function measure(count: number): { accrual: number; maturity: number; backlog: number; ticks: number } {
  const core = withStakes(count);
  const accrual = time(() => core.apply({ type: "stake.tick", at: START + DAY_MS }));
  let at = START + 7 * DAY_MS + 1_000;
  const maturity = time(() => core.apply({ type: "stake.tick", at }));
  let backlog = 0;
  let ticks = 1;
  while (core.staking.nextDue() <= (at += 5_000)) {
    const tickAt = at;
    backlog += time(() => core.apply({ type: "stake.tick", at: tickAt }));
    ticks++;
  }
  if (core.staking.stakeCount !== Math.floor(count / 2) + (count % 2)) throw new Error(`${core.staking.stakeCount} stakes left of ${count}`);
  return { accrual, maturity, backlog, ticks };
}

measure(1_000); // warm-up
const small = measure(1_000);
const large = measure(STAKES);
const n = (x: number) => x.toLocaleString("en");
console.log(`staking: ${n(STAKES)} running stakes against ${n(1_000)} (USDT, flexible and 7 days)`);
console.log(
  `  daily accrual: ${small.accrual.toFixed(1)} ms at ${n(1_000)}, ${large.accrual.toFixed(1)} ms at ${n(STAKES)}: ratio ${(large.accrual / small.accrual).toFixed(1)} (target ≤ 150)`,
);
console.log(
  `  maturity day's first tick (six days credited, up to ${n(MATURITIES_PER_TICK)} paid): ${small.maturity.toFixed(1)} ms at ${n(1_000)}, ${large.maturity.toFixed(1)} ms at ${n(STAKES)}: ratio ${(large.maturity / small.maturity).toFixed(1)} (target ≤ 150)`,
);
console.log(
  `  the rest of that day's ${n(Math.floor(STAKES / 2))} maturities: ${large.ticks - 1} more ticks 5 s apart, ${large.backlog.toFixed(1)} ms in all, ${(large.backlog / Math.max(1, large.ticks - 1) || 0).toFixed(1)} ms a tick`,
);
const longest = Math.max(large.accrual, large.maturity, large.backlog / Math.max(1, large.ticks - 1));
console.log(`  longest stop of the engine meanwhile (one command): ${longest.toFixed(1)} ms`);
