import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { text } from "./support";

/**
 * Issue 8 §1: an order is exactly what was typed, or it is refused. In English and Turkish (which
 * writes a decimal comma), with and without JavaScript. With JavaScript the §5 clean-up shapes the
 * field as the member types, so what is placed is what the field shows; without it the server
 * reshapes nothing: the form comes back with what was typed and a message naming the field.
 */
const PAGE = "/exchange/full-screen/BTC_USDT";

/** Sets the member's language the way the language menu does (the `lang` cookie, base64 JSON). */
async function useLanguage(page: Page, lang: string) {
  const { hostname } = new URL(page.url());
  await page.context().addCookies([{ name: "lang", value: Buffer.from(JSON.stringify(lang)).toString("base64"), domain: hostname, path: "/" }]);
  await page.goto(PAGE);
}

function t(lang: string, key: string, values: Record<string, string> = {}) {
  return text(lang, key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? "");
}

for (const lang of ["en", "tr"] as const) {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`exact order input in ${lang}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled });

      test("each number is placed as typed or refused; a market buy that spends all it can is filled", async ({ page }) => {
        const member = await createMember(`exact-${lang}-${javaScriptEnabled ? "js" : "nojs"}`);
        await deposit(member.uid, "USDT", "10000");
        await logIn(page, member.email, member.password, PAGE);
        await useLanguage(page, lang);
        const mark = lang === "tr" ? "," : ".";
        const other = lang === "tr" ? "." : ",";
        const buy = page.getByRole("form", { name: t(lang, "exchange.buy_title", { coin: "BTC" }) });
        const price = buy.getByLabel(t(lang, "exchange.price"));
        const amount = buy.getByLabel(t(lang, "exchange.amount"));
        const submit = buy.getByRole("button", { name: t(lang, "exchange.buy_title", { coin: "BTC" }) });
        const orders = page.getByTestId("open-orders");
        const available = page.getByTestId("available-buy");
        const noOrders = page.getByText(t(lang, "exchange.no_open_orders"));
        const availableBefore = await available.innerText();
        const fieldError = (key: string, field: string, values: Record<string, string> = {}) =>
          buy.getByText(t(lang, key, { field: t(lang, field), ...values }), { exact: true });
        const example = `12${mark}5`;

        // The other convention's mark: with JavaScript it is read as the decimal the member meant
        // and shown in the language's own mark; without it the server refuses it (never 100×).
        await price.fill("20000");
        await amount.fill(`0${other}01`);
        if (javaScriptEnabled) {
          await expect(amount).toHaveValue(`0${mark}01`);
        } else {
          await submit.click();
          await expect(fieldError("validation.number.wrong_mark", "exchange.amount", { mark, example })).toBeVisible();
          await expect(amount).toHaveValue(`0${other}01`);
          await expect(noOrders).toBeVisible(); // nothing placed
        }

        // A minus, an exponent, 30 decimals: cleaned as typed with JavaScript, refused without.
        const refusals: Array<[field: typeof price, typed: string, cleaned: string, key: string, label: string, values?: Record<string, string>]> = [
          [amount, "-0.01", `0${mark}01`, "validation.number.negative", "exchange.amount"],
          [price, "3e4", "34", "validation.number.invalid", "exchange.price", { example }],
          [amount, `0${mark}${"0".repeat(29)}1`, `0${mark}000000`, "validation.number.decimals", "exchange.amount", { max: "6" }],
        ];
        for (const [field, typed, cleaned, key, label, values] of refusals) {
          await price.fill("20000");
          await amount.fill(`0${mark}01`);
          await field.fill(typed);
          if (javaScriptEnabled) {
            await expect(field).toHaveValue(cleaned);
          } else {
            await submit.click();
            await expect(fieldError(key, label, values)).toBeVisible();
            await expect(buy.getByLabel(t(lang, label))).toHaveValue(typed);
            await expect(available).toHaveText(availableBefore);
          }
        }
        await expect(noOrders).toBeVisible();

        // What is accepted is placed exactly: 0,01 (tr) or 0.01 (en) at 20 000 holds 200 USDT.
        await price.fill(`20000${mark}5`);
        await amount.fill(`0${mark}01`);
        await submit.click();
        await expect(page.getByText(t(lang, "exchange.placed_open"))).toBeVisible();
        await expect(orders.getByRole("row")).toHaveCount(2);
        // Shown in the language's marks: 20.000,5 and 0,01 in Turkish.
        const thousands = lang === "tr" ? "." : ",";
        await expect(orders.getByRole("row").nth(1)).toContainText(`20${thousands}000${mark}5`);
        await expect(orders.getByRole("row").nth(1)).toContainText(`0${mark}01`);
        await expect(available).toHaveText(`9${thousands}799${mark}995 USDT`);

        // A market buy: a negative total is refused without JavaScript; 100 USDT spends all it
        // can (the rest buys less than one lot) and is reported as filled.
        await page.getByRole("link", { name: t(lang, "exchange.type_market"), exact: true }).click();
        await expect(page).toHaveURL(/type=market/);
        const money = buy.getByLabel(t(lang, "exchange.total_spend"));
        await money.fill("-10");
        if (javaScriptEnabled) {
          await expect(money).toHaveValue("10");
        } else {
          await submit.click();
          await expect(fieldError("validation.number.negative", "exchange.total_spend")).toBeVisible();
          await expect(money).toHaveValue("-10");
        }
        await money.fill("100");
        await submit.click();
        const filled = t(lang, "exchange.placed_filled", { filled: "FILLED", coin: "BTC" })
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          .replace("FILLED", `0${lang === "tr" ? "," : "\\."}00\\d+`);
        await expect(page.getByText(new RegExp(`^${filled}$`))).toBeVisible();
      });
    });
  }
}
