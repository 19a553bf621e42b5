import { endpoints } from "../../protocol/endpoints";
import { billFilterSchema } from "../../protocol/endpoints/bills";
import type { BillService } from "../wallet/bill-service";
import type { ApiContext } from "./context";
import { memberCsvExport } from "./csv-export";
import { memberEndpoint } from "./member-endpoint";

/**
 * A member's bills (spec §7 `assets/getMyBill`; docs/decisions/026-bills.md): a page of their
 * statement lines and the CSV export, scoped to the calling member, each after the projection
 * wait.
 */
export function registerBillRoutes(api: ApiContext, bills: BillService): void {
  memberEndpoint(api, endpoints.myBills, ({ query, memberId }) => bills.lines(memberId, query));

  memberCsvExport(api, endpoints.exportMyBill, billFilterSchema, ({ body, memberId, lang, now }) => bills.export(memberId, body, lang, now));
}
