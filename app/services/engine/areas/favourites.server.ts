import { endpoints } from "#protocol/endpoints";
import type { EngineCall } from "../call.server";

/** The member's favourite markets (symbols as BTC/USDT). */
export function favouritesArea(call: EngineCall) {
  const pair = (symbol: string) => {
    const [base = "", quote = ""] = symbol.split("/");
    return { base, quote };
  };
  return {
    list: () => call(endpoints.getOptional),
    add: (symbol: string) => call(endpoints.addOptional, { params: pair(symbol) }),
    remove: (symbol: string) => call(endpoints.cancelOptional, { params: pair(symbol) }),
  };
}
