import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { languageCookie } from "~/services/platform/preferences.server";
import { clearSiteCache, loadRates, loadSite } from "~/services/platform/site.server";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import * as configRoute from "./config";

/** The console's configuration page (issue 29, decision 044) against a real engine: who reads, who changes, what is refused. */
let exchange: TestExchange;
let markets: SignedInOperator;
let finance: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "markets@ops.example", role: "markets", name: "Mia Markets" });
  finance = await signInOperator(exchange, { email: "finance@ops.example", role: "finance" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/config";
type Page = { table: string; rows: Array<Record<string, unknown> & { id: number }>; edit: { id: number | null } | null; mayChange: boolean };
type Refused = { intent: string; result: SubmissionResult<string[]> };
const tables = () => exchange.api.data(endpoints.opsConfig, {}, exchange.operator);
const auditRows = (query: { action?: string; target?: string } = {}) => exchange.api.data(endpoints.opsAudit, { query }, exchange.operator).then((p) => p.rows);

describe("the configuration page", () => {
  it("shows a table's rows to the roles that may read them, with the row being edited; others are refused", async () => {
    const page = await markets.browser.get(configRoute.loader, PAGE);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const shown = page.data as Page;
    expect(shown).toMatchObject({ table: "nav_item", edit: null, mayChange: true });
    expect(shown.rows.length).toBeGreaterThan(3);
    const eur = (await tables()).currency.find((c) => c.exchange_value === "eur")!;
    expect((await markets.browser.get(configRoute.loader, `${PAGE}?table=currency&edit=${eur.id}`)).data).toMatchObject({
      table: "currency",
      edit: { id: eur.id, row: { exchange_value: "eur" } },
    });
    expect((await markets.browser.get(configRoute.loader, `${PAGE}?table=currency&edit=new`)).data).toMatchObject({ edit: { id: null, row: null } });
    for (const query of ["table=member", "table=currency&edit=999999", "table=currency&edit=x"]) {
      expect([query, (await markets.browser.get(configRoute.loader, `${PAGE}?${query}`)).status]).toEqual([query, 404]);
    }
    expect((await finance.browser.get(configRoute.loader, PAGE)).status).toBe(403);
  });

  it("saves a display currency's rate typed with a German decimal comma; the site's rates follow; one audit row", async () => {
    const eur = (await tables()).currency.find((c) => c.exchange_value === "eur")!;
    const german = (await languageCookie.serialize("de")).split(";")[0]!;
    const form = {
      table: "currency",
      intent: "save",
      id: String(eur.id),
      exchange_value: "eur",
      quote_currency: "EUR",
      exchange_code: "€",
      sort: String(eur.sort),
    };
    const post = (body: Record<string, string>) =>
      configRoute.action({
        request: new Request(`http://localhost${PAGE}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${markets.browser.cookieHeader()}; ${german}` },
          body: new URLSearchParams(body),
        }),
        params: {},
        context: {},
      }) as unknown as Promise<Response | { data: Refused; init: ResponseInit }>;
    // A point where German writes a comma is not guessed at.
    const refused = (await post({ ...form, rate: "0.93" })) as { data: Refused; init: ResponseInit };
    expect(refused.init.status).toBe(400);
    expect(refused.data.result.error).toEqual({ rate: ["ops.config.errors.rate"] });
    const done = (await post({ ...form, rate: "0,931" })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${PAGE}?table=currency`);
    expect((await tables()).currency.find((c) => c.id === eur.id)?.rate).toBe("0.931");
    const [row] = await auditRows({ action: "config.save", target: `config:currency:${eur.id}` });
    expect(row).toMatchObject({ operator: "Mia Markets", role: "markets", via: "console", before: { rate: eur.rate }, after: { rate: "0.931" } });
    clearSiteCache();
    // The public rates keep the column's twelve decimals.
    expect((await loadRates()).find((c) => c.exchange_value === "eur")?.rate).toMatch(/^0\.9310*$/);
  });

  it("adds a footer link that the site's footer then lists, and removes it", async () => {
    const answer = await markets.browser.post(configRoute.action, PAGE, {
      table: "footer_link",
      intent: "save",
      group_code: "about",
      link_code: "press_kit",
      link_path: "https://press.example/kit",
      link_sort: "90",
      link_show: "on",
    });
    expect(answer.status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ type: "success", key: "ops.config.saved" });
    const added = (await tables()).footer_link.find((link) => link.link_code === "press_kit")!;
    expect(added).toMatchObject({ group_code: "about", link_path: "https://press.example/kit", link_sort: 90, link_show: 1 });
    await expect
      .poll(async () => {
        clearSiteCache();
        return (await loadSite()).footer.map((link) => link.link_code);
      })
      .toContain("press_kit");
    const removed = await markets.browser.post(configRoute.action, PAGE, { table: "footer_link", intent: "remove", id: String(added.id) });
    expect(removed.status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.config.removed" });
    expect((await tables()).footer_link.some((link) => link.link_code === "press_kit")).toBe(false);
  });

  it("refuses bad rows beside their field with a translated key, and changes nothing", async () => {
    const before = await tables();
    const beforeAudit = (await auditRows()).length;
    const nav = before.nav_item.find((item) => item.pid === 0 && before.nav_item.some((child) => child.pid === item.id))!;
    const navForm = (changed: Record<string, string>) => ({
      table: "nav_item",
      intent: "save",
      id: String(nav.id),
      nav_code: nav.nav_code,
      nav_path: nav.nav_path,
      pid: "0",
      nav_sort: String(nav.nav_sort),
      nav_icon: nav.nav_icon ?? "",
      nav_show: "on",
      ...changed,
    });
    const other = before.nav_item.find((item) => item.id !== nav.id)!;
    const cases: Array<[Record<string, string>, number, Record<string, string[]>]> = [
      [navForm({ nav_path: "javascript:alert(1)" }), 400, { nav_path: ["ops.config.errors.path"] }],
      [navForm({ nav_path: "//evil.example/x" }), 400, { nav_path: ["ops.config.errors.path"] }],
      [navForm({ nav_code: "Has Spaces" }), 400, { nav_code: ["ops.config.errors.code"] }],
      [navForm({ nav_sort: "12.5" }), 400, { nav_sort: ["ops.config.errors.sort"] }],
      [navForm({ nav_code: other.nav_code }), 409, { nav_code: ["ops.config.errors.taken"] }],
      // A root with items under it stays a root.
      [navForm({ pid: String(before.nav_item.find((item) => item.pid === 0 && item.id !== nav.id)!.id) }), 400, { pid: ["ops.config.errors.root"] }],
      [navForm({}), 409, { "": ["ops.config.errors.unchanged"] }],
      [{ table: "nav_item", intent: "remove", id: String(nav.id) }, 409, { "": ["ops.config.errors.has_items"] }],
      [{ table: "member", intent: "remove", id: "1" }, 400, { "": ["ops.errors.invalid"] }],
      [{ table: "currency", intent: "remove", id: "999999" }, 404, { "": ["ops.errors.item"] }],
    ];
    for (const [body, status, error] of cases) {
      const answer = await markets.browser.post(configRoute.action, PAGE, body);
      expect([body, answer.status]).toEqual([body, status]);
      expect([body, (answer.data as Refused).result.error]).toEqual([body, error]);
    }
    expect((await finance.browser.post(configRoute.action, PAGE, navForm({ nav_sort: "1" }))).status).toBe(403);
    expect(await tables()).toEqual(before);
    expect((await auditRows()).length).toBe(beforeAudit);
  });
});
