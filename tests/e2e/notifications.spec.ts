import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { ENGINE_URL, expectNoSeriousA11yViolations, logOutFromMenu, text } from "./support";
import { createMember, deposit, logIn } from "./spot-support";

/**
 * Member notifications (issue 14, decision 031): a fill tells the member on whatever page they
 * are (here the home page), the stack keeps four (a fifth closes the oldest), each links to its
 * order, the bell counts the unread, and after logging out and in again they are all on the
 * notifications page. With JavaScript they arrive live; without, with the next page. On a phone the
 * bell stays beside the folded menu.
 */
const API = `${ENGINE_URL}/api/mjkj-web`;

async function apiToken(email: string, password: string, uid: string): Promise<string> {
  const login = await fetch(`${ENGINE_URL}/api/blade-auth/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", accountType: "email", email, password, deviceId: `notices-api-${uid}` }),
  });
  return ((await login.json()) as { data: { access_token: string } }).data.access_token;
}

let keys = 0;
/** A market buy through the engine's API: the simulated market fills it at once. */
async function marketBuy(token: string): Promise<string> {
  const res = await fetch(`${API}/coin/entrust/exchange/2`, {
    method: "POST",
    headers: { "content-type": "application/json", "blade-auth": `bearer ${token}` },
    body: JSON.stringify({ symbol: "BTC_USDT", direction: "buy", num: "0.001", idempotencyKey: `notices-${Date.now()}-${++keys}` }),
  });
  const body = (await res.json()) as { code: number; data: { orderId: string; status: string } };
  expect(body.code).toBe(200);
  expect(body.data.status).toBe("filled");
  return body.data.orderId;
}

const FILLED = "Your buy order on BTC/USDT was filled.";
const stackOf = (page: Page) => page.getByRole("region", { name: "New notifications" });
const bell = (page: Page) => page.getByRole("banner").getByRole("link", { name: /^Notifications/ });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`notifications, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a fill on the home page, the fifth closes the oldest, and all of them again after logging back in", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "notices-js" : "notices-nojs");
      await deposit(member.uid, "USDT", "10000");
      const token = await apiToken(member.email, member.password, member.uid);
      await logIn(page, member.email, member.password, "/home/index");
      await expect(bell(page)).toHaveAccessibleName("Notifications");
      // axe runs in the page: with JavaScript only.
      const axe = () => (javaScriptEnabled ? expectNoSeriousA11yViolations(page) : Promise.resolve());

      /** With JavaScript the page hears of it; without, the next page shows it. */
      const arrived = async (count: number) => {
        if (!javaScriptEnabled) await page.reload();
        await expect(stackOf(page).getByRole("listitem")).toHaveCount(count);
      };
      const orders = [await marketBuy(token)];
      await arrived(1);
      await expect(stackOf(page)).toContainText(FILLED);
      await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
      await axe();

      // Four more: with the fifth, the oldest closes.
      for (let i = 1; i < 5; i++) {
        orders.push(await marketBuy(token));
        if (javaScriptEnabled) await arrived(Math.min(i + 1, 4));
      }
      await arrived(4);
      const links = stackOf(page).getByRole("link", { name: FILLED });
      const hrefOf = (id: string) => `/order?serviceType=spot&orderCode=${id}`;
      // The fifth is on top (with four shown already, its arrival shows as the oldest leaving).
      await expect(links.last()).toHaveAttribute("href", hrefOf(orders[4]!));
      await expect(links).toHaveCount(4);
      const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute("href")));
      expect(hrefs).toEqual(orders.slice(1).map(hrefOf));
      await expect(bell(page)).toHaveAccessibleName("Notifications, 5 unread");
      await axe();

      // Each closes on its own (without JavaScript: the page again, which stacks nothing new).
      await stackOf(page)
        .getByRole(javaScriptEnabled ? "button" : "link", { name: "Close notification" })
        .first()
        .click();
      await expect(stackOf(page).getByRole("listitem")).toHaveCount(javaScriptEnabled ? 3 : 0);

      // Back in after logging out: the bell counts them and the page lists all five.
      await logOutFromMenu(page);
      await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();
      await expect(stackOf(page)).toHaveCount(0);
      await logIn(page, member.email, member.password, "/home/index");
      await expect(bell(page)).toHaveAccessibleName("Notifications, 5 unread");
      await bell(page).click();
      await expect(page).toHaveURL(/\/account\/center\/notifications$/);
      const list = page.getByTestId("notice-list").getByRole("listitem");
      await expect(list).toHaveCount(5);
      await expect(page.getByText("5 unread", { exact: true })).toBeVisible();
      await axe();

      // One read by its form, then the rest; its link goes to the order's page (the named route `order`).
      await list.first().getByRole("button", { name: "Mark as read" }).click();
      await expect(page.getByText("4 unread", { exact: true })).toBeVisible();
      await expect(bell(page)).toHaveAccessibleName("Notifications, 4 unread");
      await page.getByRole("button", { name: "Mark all as read" }).click();
      await expect(page.getByText("0 unread", { exact: true })).toBeVisible();
      await expect(bell(page)).toHaveAccessibleName("Notifications");
      await list.first().getByRole("link", { name: FILLED }).click();
      await expect(page).toHaveURL(new RegExp(`/account/entrust/spot/${orders[4]}$`));
    });

    test.describe("on a phone", () => {
      test.use({ viewport: { width: 390, height: 844 } });

      test("the unread count shows beside the folded menu and follows the notices", async ({ page }) => {
        const member = await createMember(javaScriptEnabled ? "notices-phone-js" : "notices-phone-nojs");
        await deposit(member.uid, "USDT", "10000");
        const token = await apiToken(member.email, member.password, member.uid);
        await logIn(page, member.email, member.password, "/home/index");
        const header = page.getByRole("banner");
        // Folded: the row is in the closed menu, the bell beside the menu button.
        await expect(header.getByRole("link", { name: "Markets", exact: true })).toBeHidden();
        await expect(bell(page)).toBeInViewport();
        await expect(bell(page)).toHaveAccessibleName("Notifications");

        await marketBuy(token);
        if (!javaScriptEnabled) await page.reload();
        await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
        await expect(bell(page)).toHaveText("1");
        await marketBuy(token);
        if (!javaScriptEnabled) await page.reload();
        await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
        await expect(header.getByRole("link", { name: "Markets", exact: true })).toBeHidden();
        if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

        // The open menu does not show a second bell; the one beside it leads to the notifications.
        await header.getByText("Menu", { exact: true }).click();
        await expect(header.getByRole("link", { name: "Markets", exact: true })).toBeVisible();
        await expect(bell(page)).toHaveCount(1);
        await bell(page).click();
        await expect(page).toHaveURL(/\/account\/center\/notifications$/);
        await expect(page.getByTestId("notice-list").getByRole("listitem")).toHaveCount(2);
      });
    });
  });
}

test("after a network drop the stack carries on without a reload (JavaScript on)", async ({ page }) => {
  test.setTimeout(120_000);
  const member = await createMember("notices-drop");
  await deposit(member.uid, "USDT", "10000");
  const token = await apiToken(member.email, member.password, member.uid);
  // The socket's connections pass through here, so the test can cut them; while the browser is
  // offline, new ones fail as on a real network (and socket.io tries again after a while).
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    ws.connectToServer();
    open.push(ws);
  });
  await logIn(page, member.email, member.password, "/home/index");
  await marketBuy(token);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(1);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  // The page's socket is routed through here before it is cut (its first notice may come by the
  // read that follows the subscription, before the route handler has recorded the connection).
  await expect.poll(() => open.length).toBeGreaterThan(0);
  await page.context().setOffline(true);
  for (const ws of open.splice(0)) await ws.close();
  await marketBuy(token);
  // Nothing reaches the page meanwhile (the push went to a closed connection).
  await page.waitForTimeout(1_500);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(1);

  // Back online: the socket reconnects by itself, follows the topic again with a fresh ticket and
  // reads what it missed. A dropped connection may only be noticed by the missed pings (spec §9:
  // keepalive 5 s, then socket.io's 10 s ping timeout), then comes the reconnect's back-off (up to
  // 5 s) and, for an attempt made while offline, socket.io's 20 s connect timeout.
  await page.context().setOffline(false);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(2, { timeout: 45_000 });
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await marketBuy(token);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(3);
});

test("a live read that cannot reach the server leaves the member's page as it is (JavaScript on)", async ({ page }) => {
  const member = await createMember("notices-read-fails");
  await deposit(member.uid, "USDT", "10000");
  const token = await apiToken(member.email, member.password, member.uid);
  await logIn(page, member.email, member.password, "/home/index");
  await marketBuy(token);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(1);

  // The next read fails on the network (a blip on a weak connection): no error page in place of the member's.
  await page.route(/\/account\/center\/notifications\/live/, (route) => route.abort("internetdisconnected"));
  await marketBuy(token);
  await page.waitForTimeout(1_500);
  await expect(page.getByRole("heading", { name: text("en", "errors.load_title") })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("en", "home.hero.title"));
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(1);

  // Reachable again: the next push reads what was missed too.
  await page.unroute(/\/account\/center\/notifications\/live/);
  await marketBuy(token);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(3);
});

test("the member's own pages read the stack every 30 s, without socket.io (JavaScript on; decision 037)", async ({ page }) => {
  const member = await createMember("notices-by-turns");
  await deposit(member.uid, "USDT", "10000");
  const token = await apiToken(member.email, member.password, member.uid);
  const sockets: string[] = [];
  page.on("request", (request) => {
    if (/\/socket\.io\//.test(request.url())) sockets.push(request.url());
  });
  page.on("websocket", (ws) => sockets.push(ws.url()));
  // The page's timers run on a clock the test moves; the network does not.
  await page.clock.install();
  await logIn(page, member.email, member.password, "/account/wallet/assets");
  await expect(page).toHaveURL(/\/account\/wallet\/assets$/);
  await expect(bell(page)).toHaveAccessibleName("Notifications");

  await marketBuy(token);
  // Not followed live here: nothing until the next read.
  await page.clock.runFor(5_000);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(0);
  await page.clock.runFor(30_000);
  await expect(stackOf(page).getByRole("listitem")).toHaveCount(1);
  await expect(stackOf(page)).toContainText(FILLED);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  expect(sockets, "no socket.io on the member's own pages").toEqual([]);
});
