import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadContractTrades } from "~/services/contracts/contract-orders.server";
import { withMember } from "~/services/engine/route.server";

/** CSV download of the member's contract trades of a kind, or of one contract (`?symbol=`; spec §7 `exportContractTradeLog`). */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine, params }) => downloadContractTrades(engine, params.kind ?? ""));
}
