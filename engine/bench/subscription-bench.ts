import { performance } from "node:perf_hooks";
import { SETTLEMENTS_PER_TICK } from "../core/earn/subscriptions";
import { projectRules, subscriptionsCore, WINDOW_END, WINDOW_START } from "../core/earn/subscriptions-test-kit";
import type { ExchangeCore } from "../core/exchange/exchange-core";

/**
 * Subscriptions in the core (issue 32; decision 053), measured in one run: the allotment at a
 * window's end over 100,000 subscriptions against the same over 1,000 (oversubscribed tenfold, so
 * every one is pro rata with remainders to hand out), the tick that makes it and settles the first
 * SETTLEMENTS_PER_TICK, and the ticks settling the rest (target: ratio ≤ 150). Each tick is one
 * command: its time is the longest stop of the engine meanwhile, printed too. `BENCH_SUBSCRIPTIONS`
 * sets the large book (100,000).
 */
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? (process.env.BENCH_QUICK ? 20_000 : 100_000));

/** A core with `count` members each asking 1 to 40 lots of one project whose supply is a tenth of what they ask. */
function withSubscriptions(count: number): ExchangeCore {
  let asked = 0;
  const lots = Array.from({ length: count }, (_, m) => 1 + ((m * 7919) % 40));
  for (const l of lots) asked += l;
  const core = subscriptionsCore([projectRules("NXA-B", { supply: String(Math.max(1, Math.floor(asked / 10))), maxPerMember: "40" })], "b");
  for (let m = 0; m < count; m++) {
    const member = String(m);
    core.apply({ type: "ledger.deposit", id: `d${m}`, memberId: member, asset: "USDT", kind: "funding", amount: "20" });
    const done = core.apply({ type: "subscription.subscribe", memberId: member, projectId: "NXA-B", quantity: String(lots[m]), at: WINDOW_START + m });
    if (done.code !== "OK") throw new Error(`subscription refused: ${done.code}`);
  }
  return core;
}

function time(run: () => void): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

/** Milliseconds of the window's first tick (the allotment and the first settlements) and of all the ticks settling the rest, with their count. */
function measure(count: number): { first: number; rest: number; ticks: number } {
  const core = withSubscriptions(count);
  let at = WINDOW_END;
  const first = time(() => core.apply({ type: "subscription.tick", at }));
  let rest = 0;
  let ticks = 1;
  while (core.subscriptions.nextDue() <= (at += 2_000)) {
    const tickAt = at;
    rest += time(() => core.apply({ type: "subscription.tick", at: tickAt }));
    ticks++;
  }
  if (core.subscriptions.openCount !== 0) throw new Error(`${core.subscriptions.openCount} subscriptions left of ${count}`);
  return { first, rest, ticks };
}

measure(1_000); // warm-up
const small = measure(1_000);
const large = measure(SUBSCRIPTIONS);
const n = (x: number) => x.toLocaleString("en");
const perTick = (m: { rest: number; ticks: number }) => m.rest / Math.max(1, m.ticks - 1);
console.log(`subscriptions: an allotment over ${n(SUBSCRIPTIONS)} subscriptions against ${n(1_000)} (oversubscribed tenfold, pro rata)`);
console.log(
  `  the window's first tick (allotment + up to ${n(SETTLEMENTS_PER_TICK)} settled): ${small.first.toFixed(1)} ms at ${n(1_000)}, ${large.first.toFixed(1)} ms at ${n(SUBSCRIPTIONS)}: ratio ${(large.first / small.first).toFixed(1)} (target ≤ 150)`,
);
const whole = (m: { first: number; rest: number }) => m.first + m.rest;
console.log(
  `  the whole allotment and settlement: ${whole(small).toFixed(1)} ms at ${n(1_000)}, ${whole(large).toFixed(1)} ms at ${n(SUBSCRIPTIONS)} over ${large.ticks} ticks 2 s apart: ratio ${(whole(large) / whole(small)).toFixed(1)} (target ≤ 150)`,
);
console.log(`  longest stop of the engine meanwhile (one command): ${Math.max(large.first, perTick(large)).toFixed(1)} ms`);
