import { afterAll, beforeAll, describe, expect, it } from "vitest";
import de from "~/locales/de.json";
import type { Texts } from "~/lib/texts";
import { textsOf } from "~/lib/texts";
import { messageAt } from "~/lib/use-shell";
import type { ShellData } from "~/lib/shell";
import { loadTexts } from "~/services/platform/messages.server";
import { Browser } from "~/testing/route-call";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import * as textsRoute from "./texts.$lang.$file";

/** The texts a page's script reads (decision 036), against a real engine (its language entries overlay the shipped file). */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const get = (lang: string, file: string) => new Browser().get(textsRoute.loader, `/texts/${lang}/${file}`, { lang, file });

describe("a language's texts", () => {
  it("are served at their version for a year, as a script that sets window.__texts, and as JSON", async () => {
    const { version } = await loadTexts("de");
    expect(version).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const script = await get("de", `${version}.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = script.data as string;
    expect(body.startsWith("window.__texts=")).toBe(true);
    const fromScript = JSON.parse(body.slice("window.__texts=".length).replace(/;\n$/, "")) as Texts;
    expect(fromScript).toMatchObject({ lang: "de", version });
    expect((fromScript.messages.home as { title: string }).title).toBe((de.home as { title: string }).title);

    const json = await get("de", `${version}.json`);
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(json.data as string)).toEqual(fromScript);
  });

  it("answer another version with the current texts, not to be cached; an unknown language or name is not found", async () => {
    const { version } = await loadTexts("de");
    const old = await get("de", "0000000000000000.js");
    expect(old.status).toBe(200);
    expect(old.headers.get("cache-control")).toBe("no-cache");
    expect(old.data as string).toContain(`"version":"${version}"`);
    expect((await get("xx", `${version}.js`)).status).toBe(404);
    expect((await get("de", `${version}.css`)).status).toBe(404);
    expect((await get("de", "../../etc/passwd")).status).toBe(404);
  });

  it("are known to the server's renderer once loaded, for page titles and the shell", async () => {
    const texts = await loadTexts("de");
    expect(textsOf("de")).toBe(texts);
    const shell = { lang: "de" } as ShellData;
    expect(messageAt(shell, "home.title")).toBe((de.home as { title: string }).title);
    expect(messageAt(shell, "home.no_such_key")).toBeUndefined();
  });
});
