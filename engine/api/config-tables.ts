import { endpoints } from "../../protocol/endpoints";
import type { ConfigTableService } from "../configuration/config-table-service";
import type { ApiContext } from "./context";
import { registerEndpoint } from "./register";

/** Configuration tables (spec §7 "Configuration tables"): generic paging, detail, dicts, texts, rates. Public. */
export function registerConfigTableRoutes({ app, apiHead }: ApiContext, tables: ConfigTableService): void {
  registerEndpoint(app, apiHead, endpoints.getData, ({ params, query }) => tables.page(params.tableId, query));
  registerEndpoint(app, apiHead, endpoints.detailData, ({ params }) => tables.record(params.tableId, params.rowId));
  registerEndpoint(app, apiHead, endpoints.dictItems, ({ params }) => tables.dictItems(params.dict));
  registerEndpoint(app, apiHead, endpoints.languageEntries, ({ params }) => tables.languageEntries(params.lang));
  registerEndpoint(app, apiHead, endpoints.coinRates, () => tables.coinRates());
  registerEndpoint(app, apiHead, endpoints.areaCodes, () => tables.areaCodes());
  registerEndpoint(app, apiHead, endpoints.clientVersion, ({ query }) => tables.latestClientVersion(query.clientType));
}
