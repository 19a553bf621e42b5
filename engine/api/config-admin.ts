import { endpoints } from "../../protocol/endpoints";
import type { ConfigAdmin } from "../configuration/config-admin";
import type { ApiContext } from "./context";
import { operatorEndpoint } from "./operator-endpoint";

/** The operators' configuration calls (issue 29, decision 044): the four tables, a row saved or removed. */
export function registerConfigAdminRoutes(api: ApiContext, admin: ConfigAdmin): void {
  operatorEndpoint(api, endpoints.opsConfig, () => admin.tables());
  operatorEndpoint(api, endpoints.opsConfigSave, async ({ body, now, act }) => ({ id: await admin.save(body, now, act) }));
  operatorEndpoint(api, endpoints.opsConfigRemove, async ({ body, now, act }) => {
    await admin.remove(body.table, body.id, now, act);
    return null;
  });
}
