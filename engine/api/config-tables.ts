import { endpoints } from "../../protocol/endpoints";
import type { ConfigTableService } from "../configuration/config-table-service";
import type { PublicAnswers } from "../configuration/public-answers";
import type { ApiContext } from "./context";
import { registerPublicEndpoint } from "./register";

/**
 * Configuration tables (spec §7 "Configuration tables"): generic paging, detail, dicts, texts, rates. Public, and
 * answered from memory until the configuration changes (decision 035).
 */
export function registerConfigTableRoutes({ app, apiHead }: ApiContext, tables: ConfigTableService, answers: PublicAnswers): void {
  registerPublicEndpoint(app, apiHead, endpoints.getData, answers, ({ params, query }) => tables.page(params.tableId, query));
  registerPublicEndpoint(app, apiHead, endpoints.detailData, answers, ({ params }) => tables.record(params.tableId, params.rowId));
  registerPublicEndpoint(app, apiHead, endpoints.dictItems, answers, ({ params }) => tables.dictItems(params.dict));
  registerPublicEndpoint(app, apiHead, endpoints.languageEntries, answers, ({ params }) => tables.languageEntries(params.lang));
  registerPublicEndpoint(app, apiHead, endpoints.coinRates, answers, () => tables.coinRates());
  registerPublicEndpoint(app, apiHead, endpoints.areaCodes, answers, () => tables.areaCodes());
  registerPublicEndpoint(app, apiHead, endpoints.clientVersion, answers, ({ query }) => tables.latestClientVersion(query.clientType));
}
