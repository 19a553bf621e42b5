import type { DurableCore } from "../journal/durable-core";

/** Ledger sums per asset over every account: members', the exchange's own and the world outside (each must be zero). */
export function sums(durable: DurableCore): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [key, posted] of durable.core.ledger.accounts()) {
    const asset = key.slice(key.lastIndexOf("/") + 1);
    out.set(asset, (out.get(asset) ?? 0n) + posted);
  }
  return out;
}
