/**
 * An engine for the two-web-process test (run with `node --import tsx`): an in-memory database
 * whose site configuration sets the token time to 10 s (its least; the web tier refreshes 10 s before expiry), so the web tier refreshes a member's token
 * on every request, and one registered member. Prints one JSON line: its address and the member.
 */
import { createServices } from "../../../engine/api/context";
import { buildApp } from "../../../engine/app";
import { ApiClient } from "../../../engine/testing/api-client";
import { registerByEmail } from "../../../engine/testing/api-members";
import { openTestStore } from "../../../engine/testing/test-stores";

const adminToken = "two-processes-admin-token-0123456789";

const store = await openTestStore("pglite");
await store.db.updateTable("site_config").set({ config_value: "10" }).where("config_key", "=", "tokenTime").execute();
const app = await buildApp({
  store,
  apiHead: "mjkj-web",
  services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken }),
});

const email = `two-processes-${Date.now().toString(36)}@example.com`;
const password = "secret123";
const uid = await registerByEmail(new ApiClient(app), email, { password, operator: { admin: adminToken } });

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(JSON.stringify({ url, email, password, uid }));
const stop = async () => {
  await app.close();
  await store.dispose();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
