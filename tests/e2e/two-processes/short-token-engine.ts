/**
 * An engine for the two-web-process test (run with `node --import tsx`): an in-memory database
 * whose site configuration sets the token time to 1 s, so the web tier refreshes a member's token
 * on every request, and one registered member. Prints one JSON line: its address and the member.
 */
import { createServices } from "../../../engine/api/context";
import { buildApp } from "../../../engine/app";
import { openTestStore } from "../../../engine/testing/test-stores";

const API = "/api/mjkj-web";
const adminToken = "two-processes-admin-token-0123456789";

const store = await openTestStore("pglite");
await store.db.updateTable("site_config").set({ config_value: "1" }).where("config_key", "=", "tokenTime").execute();
const app = await buildApp({
  store,
  apiHead: "mjkj-web",
  services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken }),
});

const email = `two-processes-${Date.now().toString(36)}@example.com`;
const password = "secret123";
await app.inject({ method: "GET", url: `${API}/coin/open/send/email?email=${email}&type=register` });
const mail = (await app.inject({ method: "GET", url: `${API}/dev/mailbox?destination=${email}`, headers: { "x-admin-token": adminToken } })).json();
const code = String(mail.data[0].subject).match(/\d{6}/)![0];
const registered = (await app.inject({ method: "POST", url: `${API}/coin/open/register`, payload: { accountType: "email", email, code, password } })).json();
if (registered.code !== 200) throw new Error(`registration refused: ${registered.msg}`);

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(JSON.stringify({ url, email, password, uid: registered.data.uid as string }));
const stop = async () => {
  await app.close();
  await store.dispose();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
