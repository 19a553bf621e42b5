import { expect, test } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { adminHeaders, expectNoSeriousA11yViolations, HK_EXCHANGE, HK_WEB_URL } from "./support";

/**
 * The return application (spec §4/§6; decisions 005 and 053), on the suite's second exchange in the
 * hk variant, which shows it: an operator opens a short ETF round that returns by application; a
 * member asks twice its supply; the window ends during the test, the allotment gives half, the
 * other half waits; the member applies ("Repayment done", the button disabled while returning); an
 * operator pays it; the record and the status read "Returned". With and without JavaScript.
 */

test.use({ baseURL: HK_WEB_URL });

async function operator<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${HK_EXCHANGE.engineUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...adminHeaders(HK_EXCHANGE) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as { code: number; data: T; msg?: string };
  expect(answer.code, answer.msg).toBe(200);
  return answer.data;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the return application, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a round ends in the test: half allotted, the rest applied for, paid by an operator", async ({ page }) => {
      test.setTimeout(150_000);
      const projectId = `E2E-${javaScriptEnabled ? "JS" : "NOJS"}-${Date.now().toString(36)}`.toUpperCase();
      const opensAt = Date.now() + 4_000;
      await operator("/admin/subscription/project", {
        projectId,
        type: 2,
        coin: "TOP5",
        payCoin: "USDT",
        price: "10",
        lot: "1",
        supply: "10",
        minPerMember: "1",
        maxPerMember: "100",
        startAt: new Date(opensAt).toISOString(),
        endAt: new Date(opensAt + 26_000).toISOString(),
        returnByApplication: true,
      });
      const member = await createMember(javaScriptEnabled ? "ret-js" : "ret-nojs", HK_EXCHANGE);
      await deposit(member.uid, "USDT", "1000", "funding", HK_EXCHANGE);
      // The hk variant's language is zh_tw: the member reads English.
      await page.context().addCookies([{ name: "lang", value: Buffer.from(JSON.stringify("en")).toString("base64"), url: HK_WEB_URL }]);
      await logIn(page, member.email, member.password, "/etf/list");
      const section = page.getByTestId("return-application");
      await expect(section).toBeVisible();
      await expect(section.getByTestId("return-status")).toHaveText("Not applied for");
      await expect(section.getByRole("button", { name: "Apply for return" })).toBeDisabled();

      await page.waitForTimeout(Math.max(0, opensAt - Date.now() + 500));
      await page.goto(`/etf?project=${projectId}`);
      const selected = page.getByTestId("subscription-selected");
      await selected.getByLabel("Quantity (TOP5)").fill("20");
      await selected.getByRole("button", { name: "Subscribe" }).click();
      await expect(page.getByText("20 TOP5 asked for 200 USDT: the amount is held until the allotment.")).toBeVisible();
      const records = page.getByRole("table", { name: "ETF purchase records" });
      await expect(records).toContainText("In purchase");

      // The window ends and the loop allots (every 2 s): 10 of the 20 won, 100 USDT waiting.
      await expect(async () => {
        await page.goto("/etf/list");
        await expect(records).toContainText("Allotment completed", { timeout: 1_000 });
      }).toPass({ timeout: 60_000, intervals: [2_000] });
      await expect(section.getByTestId("return-amounts")).toContainText("100 USDT");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await section.getByRole("button", { name: "Apply for return" }).click();
      await expect(page.getByText("Repayment done")).toBeVisible();
      await expect(section.getByTestId("return-status")).toHaveText("Returning");
      await expect(section.getByRole("button", { name: "Apply for return" })).toBeDisabled();
      await expect(records).toContainText("Returning");

      // An operator pays it (the console's and the CLI's call).
      const pending =
        await operator<Array<{ applicationId: string; uid: string; amounts: Array<{ coin: string; amount: string }> }>>("/admin/subscription/returns");
      const mine = pending.find((a) => a.uid === member.uid)!;
      expect(mine.amounts).toEqual([{ coin: "USDT", amount: "100" }]);
      await operator("/admin/subscription/returns/pay", { applicationId: mine.applicationId });
      await page.goto("/etf/list");
      await expect(section.getByTestId("return-status")).toHaveText("Returned");
      await expect(section.getByRole("button", { name: "Apply for return" })).toBeDisabled();
      await expect(records).toContainText("Returned");
    });
  });
}
