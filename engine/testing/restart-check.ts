import { expect } from "vitest";
import type { Kysely } from "kysely";
import { DurableCore } from "../journal/durable-core";
import type { Product } from "../journal/product";
import type { Database } from "../store/schema";
import { sums } from "./ledger-sums";

/**
 * A product's durable-layer test ends here: its ledger sound (every asset summing to zero over
 * members and the exchange's accounts), then a start from the tables alone and one from a snapshot
 * (written by the first) each reaching the state hash `durable` has. Answers the snapshot's start.
 */
export async function expectSameStateOnRestart(
  durable: DurableCore,
  start: (snapshots: boolean) => Promise<DurableCore>,
  productInvariants: () => string[] = () => [],
): Promise<DurableCore> {
  for (const [asset, sum] of sums(durable)) expect(sum, asset).toBe(0n);
  expect(durable.core.ledger.checkInvariants()).toEqual([]);
  expect(productInvariants()).toEqual([]);
  const hash = durable.core.stateHash();
  const fromTables = await start(false);
  expect(fromTables.restoredFrom.source).toBe("tables");
  expect(fromTables.core.stateHash()).toBe(hash);
  await fromTables.writeSnapshot({ force: true });
  const fromSnapshot = await start(true);
  expect(fromSnapshot.restoredFrom.source).toBe("snapshot");
  expect(fromSnapshot.core.stateHash()).toBe(hash);
  return fromSnapshot;
}

/** How a product's durable-layer test starts its core: over `db`, with `products`, on the test's clock (or the real one); a fatal commit throws. */
export function durableStarter(db: () => Kysely<Database>, products: readonly Product[], now?: () => number) {
  return (snapshots = true) =>
    DurableCore.start({
      db: db(),
      products: [...products],
      snapshots,
      ...(now ? { now } : {}),
      onFatal: (e) => {
        throw e;
      },
      warn: () => undefined,
    });
}
