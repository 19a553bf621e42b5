import type { ContractInfo } from "#protocol/endpoints/contracts";
import type { MarginPairView } from "#protocol/endpoints/margin";
import type { SpotSymbol } from "#protocol/endpoints/market-data";

/**
 * Markets' trading rules, kept in the web process so an order form is checked without asking the
 * engine for the market first (issue 11: one engine call per order). The scales and coins it is
 * used for never change once a market is listed (README "Markets are configuration"), and the
 * engine checks every order again anyway; minimum quantity, fees and halts are the engine's to
 * enforce. A market listed since the last load is a miss, which reloads at once (at most once per
 * `MISS_RELOAD_MS`, so unknown symbols cannot make every request a reload).
 */
const TTL_MS = 60_000;
const MISS_RELOAD_MS = 5_000;

function rulesCache<T extends { symbolName: string }>() {
  let loaded: { bySymbol: Map<string, T>; at: number } | undefined;
  let pending: Promise<Map<string, T>> | undefined;

  async function rules(load: () => Promise<T[]>, maxAgeMs: number): Promise<Map<string, T>> {
    if (loaded && Date.now() - loaded.at < maxAgeMs) return loaded.bySymbol;
    pending ??= load()
      .then((list) => {
        loaded = { bySymbol: new Map(list.map((s) => [s.symbolName, s])), at: Date.now() };
        return loaded.bySymbol;
      })
      // The engine blinking keeps the rules it gave last (they do not change under a listed market).
      .catch((error: unknown) => {
        if (loaded) return loaded.bySymbol;
        throw error;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  return {
    /** Every market's rules, as last loaded (at most `TTL_MS` old). */
    async all(load: () => Promise<T[]>): Promise<T[]> {
      return [...(await rules(load, TTL_MS)).values()];
    },
    /** The rules of `symbol` (BTC_USDT or BTC/USDT), or null when the engine lists no such market. */
    async get(symbol: string, load: () => Promise<T[]>): Promise<T | null> {
      const name = symbol.replace("_", "/");
      const found = (await rules(load, TTL_MS)).get(name);
      if (found) return found;
      return (await rules(load, MISS_RELOAD_MS)).get(name) ?? null;
    },
    clear() {
      loaded = undefined;
    },
  };
}

const spotRules = rulesCache<SpotSymbol>();
const contractRules = rulesCache<ContractInfo>();
const marginPairs = rulesCache<MarginPairView>();

/** A spot market's rules (BTC_USDT or BTC/USDT), or null when the engine lists no such market. */
export const cachedSymbolRules = (symbol: string, load: () => Promise<SpotSymbol[]>) => spotRules.get(symbol, load);

/** A contract's rules (scales, size, leverage table), or null when the engine lists no such contract. */
export const cachedContractRules = (symbol: string, load: () => Promise<ContractInfo[]>) => contractRules.get(symbol, load);

/** Every contract's rules, in the engine's order, from the same cache (the page's contract switcher, the orders area's filter). */
export const cachedContracts = (load: () => Promise<ContractInfo[]>) => contractRules.all(load);

/** A margin pair (BTC_USDT or BTC/USDT) with its highest isolated leverage, or null when the market is not tradable on margin. */
export const cachedMarginPair = (symbol: string, load: () => Promise<MarginPairView[]>) => marginPairs.get(symbol, load);

/** For tests: forget the cached rules. */
export function clearSymbolRules() {
  spotRules.clear();
  contractRules.clear();
  marginPairs.clear();
}
