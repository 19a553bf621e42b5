import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadAudit } from "./__audit.server";

/**
 * `/ops/audit.csv`: the audit log's rows of the page's filter as a CSV download (a resource route,
 * `audit.read`), named `audit-YYYYMMDD.csv`; `X-Truncated: true` when the engine's export limit cut
 * it short. A bad filter goes back to the page, which names it.
 */
export function loader(args: LoaderFunctionArgs) {
  return downloadAudit(args);
}
