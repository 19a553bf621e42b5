import { describe, expect, it } from "vitest";
import { readToast, toastHeader } from "./toast.server";

const ORIGIN = "http://exchange.test";
const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;

async function pendingToastCookie(): Promise<string> {
  return cookieOf(await toastHeader(new Request(`${ORIGIN}/`), { type: "success", key: "exchange.order_placed" }));
}

describe("a toast's cookie", () => {
  it("expires by itself shortly after the redirect that set it", async () => {
    const header = await toastHeader(new Request(`${ORIGIN}/`), { type: "info", key: "common.ok" });
    expect(header).toMatch(/Max-Age=15/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
  });

  it("is left in place by a client data load, which a live refresh may interrupt and replace", async () => {
    const cookie = await pendingToastCookie();
    const load = (cookie: string) => readToast(new Request(`${ORIGIN}/exchange/full-screen/BTC_USDT?_data=root`, { headers: { cookie } }));
    const first = await load(cookie);
    expect(first.toast?.key).toBe("exchange.order_placed");
    // The first load shortens the cookie's life to a few seconds, whether or not it arrives.
    expect(first.header).toMatch(/Max-Age=10/);
    for (const replacingCookie of [cookie, cookieOf(first.header!)]) {
      const replacing = await load(replacingCookie);
      expect(replacing.toast?.id).toBe(first.toast?.id);
    }
    expect((await load(cookieOf(first.header!))).header).toBeNull();
  });

  it("is consumed by a document request, so a reload without JavaScript does not show it twice", async () => {
    const cookie = await pendingToastCookie();
    const page = await readToast(new Request(`${ORIGIN}/exchange/full-screen/BTC_USDT`, { headers: { cookie } }));
    expect(page.toast?.key).toBe("exchange.order_placed");
    expect(page.header).toMatch(/^__toast=;|Max-Age=0/);
    const cleared = cookieOf(page.header!);
    expect((await readToast(new Request(`${ORIGIN}/`, { headers: { cookie: cleared } }))).toast).toBeNull();
  });

  it("carries nothing when there is none", async () => {
    expect(await readToast(new Request(`${ORIGIN}/`))).toEqual({ toast: null, header: null });
  });
});
