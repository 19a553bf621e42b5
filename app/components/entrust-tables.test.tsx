import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import de from "~/locales/de.json";
import en from "~/locales/en.json";
import fr from "~/locales/fr.json";
import tr from "~/locales/tr.json";
import { I18nProvider } from "~/lib/i18n";
import type { Messages } from "~/lib/messages";
import { Amount } from "./entrust-tables";

// Class names only (vanilla-extract compiles styles at build time, not in unit tests).
vi.mock("~/styles/account-entrust.css", () => ({ unit: "unit" }));

function text(lang: string, messages: Messages, value: string | null, coin?: string): string {
  const html = renderToStaticMarkup(
    <I18nProvider lang={lang} messages={messages}>
      <Amount value={value} coin={coin} />
    </I18nProvider>,
  );
  return html.replace(/<[^>]+>/g, "");
}

describe("Amount", () => {
  it("writes a space between the number and its coin, in every language's marks", () => {
    expect(text("en", en, "0.01", "BTC")).toBe("0.01 BTC");
    expect(text("tr", tr, "0.01", "BTC")).toBe("0,01 BTC");
    expect(text("de", de, "1234.5", "USDT")).toBe("1.234,5 USDT");
    expect(text("fr", fr, "1234.5", "USDT")).toBe("1\u202F234,5 USDT");
  });

  it("writes the number alone without a coin, and -- without a number", () => {
    expect(text("tr", tr, "0.01")).toBe("0,01");
    expect(text("en", en, null, "BTC")).toBe("--");
  });
});
