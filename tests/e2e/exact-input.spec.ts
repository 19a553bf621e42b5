import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { text } from "./support";

/**
 * Issues 8 §1 and 28 §1: an order is exactly what was typed, or it is refused. In English and
 * Turkish (which writes a decimal comma), with and without JavaScript. Nothing rewrites a field
 * (decision 039): with JavaScript the field keeps what was typed and shows the server's message as
 * soon as it cannot be read, and the post is not sent; without it the server refuses the post and
 * the form comes back with what was typed and the same message.
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
        const fieldError = (key: string, field: string, values: Record<string, string> = {}) =>
          buy.getByText(t(lang, key, { field: t(lang, field), ...values }), { exact: true });
        const example = `12${mark}5`;

        /** Fills a field, posts the form, and expects the message, the text kept and nothing placed. */
        const refused = async (field: typeof price, typed: string, key: string, label: string, values: Record<string, string> = {}) => {
          const before = await available.innerText();
          await field.fill(typed);
          // With JavaScript the server's message shows as the member types, before any post.
          if (javaScriptEnabled) await expect(fieldError(key, label, values)).toBeVisible();
          await submit.click();
          await expect(fieldError(key, label, values)).toBeVisible();
          await expect(buy.getByLabel(t(lang, label))).toHaveValue(typed);
          await expect(available).toHaveText(before);
        };

        // The other convention's mark is not guessed at (never 100×, never a thousandth).
        await price.fill("20000");
        await refused(amount, `0${other}01`, "validation.number.wrong_mark", "exchange.amount", { mark, example });
        await expect(noOrders).toBeVisible();

        // A minus, an exponent, 30 decimals: refused, never cleaned into another number.
        const refusals: Array<[field: typeof price, typed: string, key: string, label: string, values?: Record<string, string>]> = [
          [amount, "-0.01", "validation.number.negative", "exchange.amount"],
          [price, "3e4", "validation.number.invalid", "exchange.price", { example }],
          [amount, `0${mark}${"0".repeat(29)}1`, "validation.number.decimals", "exchange.amount", { max: "6" }],
        ];
        for (const [field, typed, key, label, values] of refusals) {
          await price.fill("20000");
          await amount.fill(`0${mark}01`);
          await refused(field, typed, key, label, values);
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
        await refused(money, "-10", "validation.number.negative", "exchange.total_spend");
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

/**
 * Issue 28 §1: what a probe typed and pasted with JavaScript on, each into each money field of the
 * spot form (price, amount, a stop's entry price and its stop-loss price, a market buy's total).
 * The old as-you-type clean-up placed other numbers (`.01` became 1, `1,000` became 1, `1e-2`
 * became 12); now each stays exactly as typed, is marked with the server's message, and nothing is
 * placed. Typed key by key too, since a clean-up on input acts on every keystroke.
 */
test.describe("what a probe typed is never placed as another number, JavaScript on", () => {
  const PROBES = [".01", "1,000", "1e-2", "-0.01", "0.0.1", "💰0.01"];

  const BY_TYPE: Array<[type: string, fields: string[], valid: Record<string, string>]> = [
    ["limit", ["exchange.price", "exchange.amount"], { "exchange.price": "20000", "exchange.amount": "0.01" }],
    [
      "stop",
      ["exchange.order_price", "exchange.stop_loss_price"],
      { "exchange.order_price": "20000", "exchange.stop_loss_price": "19000", "exchange.amount": "0.01" },
    ],
    ["market", ["exchange.total_spend"], {}],
  ];

  for (const [type, fields, valid] of BY_TYPE) {
    test(`${type} order: each probe in each field stays as typed, is marked, and places nothing`, async ({ page }) => {
      const member = await createMember(`exact-probes-${type}`);
      await deposit(member.uid, "USDT", "10000");
      await logIn(page, member.email, member.password, `${PAGE}?type=${type}`);
      const buy = page.getByRole("form", { name: t("en", "exchange.buy_title", { coin: "BTC" }) });
      const submit = buy.getByRole("button", { name: t("en", "exchange.buy_title", { coin: "BTC" }) });
      const available = page.getByTestId("available-buy");
      const availableBefore = await available.innerText();
      if (type === "stop") await buy.getByLabel(t("en", "exchange.stop_loss"), { exact: true }).check();
      for (const label of fields) {
        const field = buy.getByLabel(t("en", label), { exact: true });
        for (const probe of PROBES) {
          for (const [other, value] of Object.entries(valid)) if (other !== label) await buy.getByLabel(t("en", other), { exact: true }).fill(value);
          // Typed key by key (a clean-up on input acts on each keystroke) or pasted at once.
          if (probe === ".01" || probe === "1,000") {
            await field.fill("");
            await field.pressSequentially(probe);
          } else {
            await field.fill(probe);
          }
          await expect(field, `${probe} in ${label}`).toHaveValue(probe);
          await expect(field).toHaveAttribute("aria-invalid", "true");
          await submit.click();
          await expect(field, `${probe} in ${label} after a post`).toHaveValue(probe);
        }
      }
      await expect(page.getByText(t("en", "exchange.no_open_orders"))).toBeVisible();
      await expect(available).toHaveText(availableBefore);
    });
  }
});
