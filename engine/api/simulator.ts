import type { Kysely } from "kysely";
import { endpoints } from "../../protocol/endpoints";
import { fromMinor, toMinor } from "../../protocol/money";
import type { Simulator } from "../sim/market-simulator";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { operatorEndpoint } from "./operator-endpoint";

/** The running simulator, once it has started (it starts after the API is built, so the route finds it here). */
export interface SimulatorHandle {
  current: Simulator | null;
}

/**
 * The simulator's operator call (`/admin/sim/price`, registered only where the simulator runs): a
 * simulated market's reference moved at once, audited with where it was and where it went.
 */
export function registerSimulatorRoutes(api: ApiContext, db: Kysely<Database>, spot: SpotService, handle: SimulatorHandle): void {
  operatorEndpoint(api, endpoints.adminSimPrice, async ({ body, act, now }) => {
    const market = spot.markets.get(body.symbol);
    const simulator = handle.current;
    if (!market || !simulator) throw ApiError.notFound(`${body.symbol} is not a simulated market`, "NOT_FOUND");
    const scale = market.config.priceScale;
    let price: bigint;
    try {
      price = toMinor(body.price, scale);
    } catch {
      throw ApiError.badRequest(`price: at most ${scale} decimals for ${body.symbol}`, "VALIDATION");
    }
    const before = simulator.reference(body.symbol);
    const moved = await simulator.moveReference(body.symbol, price);
    if (moved === undefined) throw ApiError.notFound(`${body.symbol} is not a simulated market`, "NOT_FOUND");
    const reference = fromMinor(moved, scale);
    await act.write(db, `sim:${body.symbol}`, { reference: before === undefined ? null : fromMinor(before, scale) }, { reference }, now);
    return { symbol: body.symbol, reference };
  });
}
