import type { SubscriptionProjectRules } from "../exchange/commands";
import { ExchangeCore } from "../exchange/exchange-core";

export const WINDOW_START = Date.UTC(2026, 10, 1, 0, 0, 0);
export const WINDOW_END = WINDOW_START + 3 * 86_400_000;

/** A project of the tests and the bench: 1,000 NXA at 0.5 USDT, lots of 1, 1 to 100 per member, its window three days from WINDOW_START. */
export function projectRules(id = "NXA-1", overrides: Partial<SubscriptionProjectRules> = {}): SubscriptionProjectRules {
  return {
    type: "subscription.project",
    id,
    projectType: 1,
    asset: "NXA",
    quoteAsset: "USDT",
    price: "0.5",
    lot: "1",
    supply: "1000",
    minPerMember: "1",
    maxPerMember: "100",
    startAt: WINDOW_START,
    endAt: WINDOW_END,
    returnByApplication: false,
    at: WINDOW_START - 1_000,
    ...overrides,
  };
}

/** A core with USDT, NXA and TOP5 (8 decimals each) and the projects given (by default NXA-1). */
export function subscriptionsCore(projects: SubscriptionProjectRules[] = [projectRules()], prefix = "u"): ExchangeCore {
  const core = new ExchangeCore(prefix);
  for (const asset of ["USDT", "NXA", "TOP5"]) core.listAsset(asset, 8);
  for (const p of projects) {
    const outcome = core.apply(p);
    if (outcome.code !== "OK") throw new Error(`project ${p.id} refused: ${outcome.code} ${outcome.problem ?? ""}`);
  }
  return core;
}
