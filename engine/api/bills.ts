import { Readable } from "node:stream";
import { endpoints } from "../../protocol/endpoints";
import { billFilterSchema } from "../../protocol/endpoints/bills";
import { requestLanguage } from "../locales/engine-texts";
import type { BillService } from "../wallet/bill-service";
import type { ApiContext } from "./context";
import { memberEndpoint, resolveMember } from "./member-endpoint";
import { parse } from "./register";

/**
 * A member's bills (spec §7 `assets/getMyBill`; docs/decisions/026-bills.md): a page of their
 * statement lines and the CSV export, scoped to the calling member, each after the projection
 * wait.
 */
export function registerBillRoutes(api: ApiContext, bills: BillService): void {
  const { app, apiHead } = api;

  memberEndpoint(api, endpoints.myBills, ({ query, memberId }) => bills.lines(memberId, query));

  // The export answers a file, not an envelope, so it is registered by hand (refusals stay envelopes).
  app.post(`/api/${apiHead}/${endpoints.exportMyBill.path}`, async (request, reply) => {
    const lang = requestLanguage(request.headers);
    const body = parse(billFilterSchema, request.body ?? {}, "body", lang);
    const { memberId, now } = await resolveMember(api, request);
    const file = await bills.export(memberId, body, lang, now);
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${file.filename}"`)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .send(Readable.from(file.lines));
  });
}
