import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const LANGUAGES = [
  { code: "zh_cn", tag: "zh-CN", label: "简体中文" },
  { code: "zh_tw", tag: "zh-TW", label: "繁體中文" },
  { code: "en", tag: "en", label: "English" },
  { code: "kr", tag: "ko", label: "한국어" },
  { code: "jp", tag: "ja", label: "日本語" },
  { code: "es", tag: "es", label: "Español" },
  { code: "de", tag: "de", label: "Deutsch" },
  { code: "fr", tag: "fr", label: "Français" },
  { code: "tr", tag: "tr", label: "Türkçe" },
] as const;

type Messages = { [key: string]: string | Messages };

/** A shipped text of a language, read from its locale file. */
export function text(lang: string, key: string): string {
  const file = JSON.parse(readFileSync(path.resolve("app/locales", `${lang}.json`), "utf8")) as Messages;
  let node: string | Messages | undefined = file;
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`no text ${key} in ${lang}`);
  return node;
}

/** Runs axe and fails on any serious or critical violation, listing them. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    "axe serious/critical violations",
  ).toEqual([]);
}

/** React's hydration errors the page logs from now on (the browser drew something else than the server). */
export function hydrationErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /hydrat|#418|#423|#425/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

export const ENGINE_URL = `http://127.0.0.1:${process.env.E2E_ENGINE_PORT ?? 8180}`;

/** One of the suite's exchanges: its engine and its data folder (the admin token's home). */
export interface E2eExchange {
  engineUrl: string;
  dataDir: string;
}

export const DEFAULT_EXCHANGE: E2eExchange = { engineUrl: ENGINE_URL, dataDir: process.env.E2E_DATA_DIR! };
/** The second exchange, in the hk variant (playwright.config.ts): its web tier is `HK_WEB_URL`. */
export const HK_EXCHANGE: E2eExchange = {
  engineUrl: `http://127.0.0.1:${Number(process.env.E2E_ENGINE_PORT ?? 8180) + 10}`,
  dataDir: `${process.env.E2E_DATA_DIR}-hk`,
};
export const HK_WEB_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 10}`;

/** Headers of an operator call (dev mailbox, deposits): the admin token of the e2e data folder. */
export function adminHeaders(exchange: E2eExchange = DEFAULT_EXCHANGE): Record<string, string> {
  return { "x-admin-token": readFileSync(path.join(exchange.dataDir, "admin-token"), "utf8").trim() };
}

/** The latest code the engine "sent" to an address, read from its dev mailbox. */
export async function latestCode(destination: string, after = 0, exchange: E2eExchange = DEFAULT_EXCHANGE): Promise<{ code: string; body: string }> {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${exchange.engineUrl}/api/mjkj-web/dev/mailbox?destination=${encodeURIComponent(destination)}`, {
      headers: adminHeaders(exchange),
    });
    const mails = ((await res.json()) as { data: Array<{ id: string; subject: string; body: string }> }).data;
    // A code's subject ends with it (a wallet mail's does not).
    const mail = mails.find((m) => Number(m.id) > after && /(?<!\d)\d{6}$/.test(m.subject));
    if (mail) return { code: mail.subject.match(/\d{6}$/)![0], body: mail.body };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code was sent to ${destination}`);
}

/** The id of the newest mail to an address (0 when none), to wait for the next one. */
export async function lastMailId(destination: string): Promise<number> {
  const res = await fetch(`${ENGINE_URL}/api/mjkj-web/dev/mailbox?destination=${encodeURIComponent(destination)}`, { headers: adminHeaders() });
  const mails = ((await res.json()) as { data: Array<{ id: string }> }).data;
  return mails[0] ? Number(mails[0].id) : 0;
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/**
 * Sends a code and reads it from the dev mailbox. The e2e engine allows one code per address
 * every 2 s: a send it refuses as too soon ("Please wait N seconds…") is sent again after the
 * N seconds it names, so the test waits only when and as long as the engine says.
 */
export async function sendCodeAndRead(page: Page, destination: string) {
  const before = await lastMailId(destination);
  const sent = page.getByText(`We sent a 6-digit code to ${destination}`);
  const tooSoon = page.getByText(/Please wait \d+ seconds before requesting another code/);
  for (let attempt = 1; ; attempt++) {
    await page.getByRole("button", { name: /Send code|Send again/ }).click();
    await expect(sent.or(tooSoon)).toBeVisible();
    if (await sent.isVisible()) break;
    expect(attempt, "the engine kept refusing the code as too soon").toBeLessThan(5);
    // Asked again once the engine's own countdown has run out (never a guessed pause).
    const seconds = Number((await tooSoon.textContent())?.match(/wait (\d+) seconds/)?.[1] ?? 1);
    await page.waitForTimeout(seconds * 1000);
  }
  return latestCode(destination, before);
}

/**
 * Logs the member out from the header's account menu (it opens on hover). The menu is hovered
 * again if a click found it closed: once, a page still loading without JavaScript (after a link's
 * navigation) had the pointer's menu closed between the hover and the click, and the click hit the
 * page under it and then waited out the test for a menu nobody hovered.
 */
export async function logOutFromMenu(page: Page) {
  await page.waitForLoadState("load");
  const menu = page.getByRole("banner").getByRole("link", { name: /^Account menu/ });
  const logOut = page.getByRole("button", { name: "Log out" });
  await expect(async () => {
    await menu.hover();
    await logOut.click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}
