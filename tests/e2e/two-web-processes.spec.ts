import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { createInterface } from "node:readline";
import { expect, request, test, type APIRequestContext } from "@playwright/test";

/**
 * Issue 11: a member's consecutive requests may be served by different web processes (several
 * behind a load balancer, or one restarted). When process A refreshes the member's token, the
 * engine rotates it, so process B can only go on if A's answer carried the new session cookie to
 * the browser: every answer kind (page, form error, redirect) must.
 *
 * Its own engine (token time 10 s: the web tier, refreshing 10 s before expiry, refreshes on every member request) and two web
 * processes of the suite's build, on ports of their own; plain HTTP without JavaScript, one cookie
 * jar (cookies do not depend on the port).
 */
let engine: ChildProcess;
const webs: ChildProcess[] = [];
let member: { url: string; email: string; password: string; uid: string };
let a: string;
let b: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startWeb(engineUrl: string): Promise<string> {
  const port = await freePort();
  const web = spawn(process.execPath, ["server.mjs"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ENGINE_URL: engineUrl, NODE_ENV: "production", ALLOW_DEV_SECRET: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  webs.push(web);
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return origin;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`web process on ${port} did not start`);
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  engine = spawn(process.execPath, ["--import", "tsx", "tests/e2e/two-processes/short-token-engine.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: engine.stdout! }).once("line", resolve);
    engine.once("exit", (code) => reject(new Error(`engine exited with ${code}`)));
  });
  member = JSON.parse(line);
  [a, b] = await Promise.all([startWeb(member.url), startWeb(member.url)]);
});

test.afterAll(() => {
  for (const web of webs) web.kill();
  engine?.kill();
});

/** A form post to one process, as a browser without JavaScript sends it (same-origin). */
function post(http: APIRequestContext, origin: string, path: string, form: Record<string, string>) {
  return http.post(`${origin}${path}`, { form, headers: { origin }, maxRedirects: 0 });
}

/** The member's account page, served by one process: still logged in (not sent to login or home). */
async function expectLoggedIn(http: APIRequestContext, origin: string) {
  const page = await http.get(`${origin}/account/center/info`, { maxRedirects: 0 });
  expect(page.status(), `${origin} answered ${page.status()} ${page.headers().location ?? ""}`).toBe(200);
  expect(await page.text()).toContain(member.uid);
}

test("a member's requests alternate between two web processes without being logged out", async () => {
  const http = await request.newContext();
  const login = await post(http, a, "/user/login", {
    accountType: "email",
    email: member.email,
    password: member.password,
    redirectTo: "/account/center/info",
  });
  expect(login.status()).toBe(302);

  // A page on B, then a redirecting form post on A (refreshes, then redirects), then B again.
  await expectLoggedIn(http, b);
  const supported = await post(http, a, "/account/center/info", {});
  expect(supported.status()).toBe(302);
  expect(supported.headers().location).toBe("/account/center/info");
  await expectLoggedIn(http, b);

  // A refused form (answered on the page, 400) on B, then A.
  const refused = await post(http, b, "/account/center/login-pwd", { oldPassword: "x", newPassword: "secret456", newPassword1: "different" });
  expect(refused.status()).toBe(400);
  await expectLoggedIn(http, a);

  // An engine refusal turned into a toast and a redirect (renaming a device that is not there) on A, then B.
  const renamed = await post(http, a, "/account/center/device-management", { intent: "rename", id: "999999", name: "nobody's" });
  expect(renamed.status()).toBe(302);
  await expectLoggedIn(http, b);
  await http.dispose();
});

// With JavaScript the action's redirect is followed by a data request to the same process, so the
// old 5-second refresh cache hid the dropped cookie here; this guards the data-request paths.
test("with JavaScript too: data requests and fetched form posts carry the refreshed cookie", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const hydrated = () => page.waitForFunction(() => "__remixRouter" in window);
  await page.goto(`${a}/user/login?redirectTo=%2Faccount%2Fcenter%2Fdevice-management`);
  await page.getByLabel("E-mail").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${a}/account/center/device-management`);
  await hydrated();

  // A form post fetched by JavaScript on A (the action redirects; the page's data is fetched again).
  const renamed = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(".data"));
  await page.getByRole("textbox", { name: "Device", exact: true }).first().fill("Laptop on A");
  await page.getByRole("button", { name: "Rename" }).first().click();
  expect((await renamed).status()).toBeLessThan(400);
  await expect(page.getByText("Device renamed.")).toBeVisible();

  // B serves the next page; then a client-side navigation there (a data request) and A again.
  await page.goto(`${b}/account/center/info`);
  await expect(page.locator("#main").getByText(member.uid)).toBeVisible();
  await hydrated();
  const navigated = page.waitForResponse((r) => r.url().includes("/account/center/security.data"));
  await page.getByRole("link", { name: "Security", exact: true }).first().click();
  await navigated;
  await expect(page).toHaveURL(`${b}/account/center/security`);
  await page.goto(`${a}/account/center/info`);
  await expect(page.locator("#main").getByText(member.uid)).toBeVisible();
  await context.close();
});
