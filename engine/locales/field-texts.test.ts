import { describe, expect, it } from "vitest";
import { describeIssues } from "../../protocol/envelope";
import { FIELD_MESSAGES, dayField, symbolField } from "../../protocol/fields";
import { LANGUAGE_CODES } from "../../protocol/languages";
import { engineText, isTextKey, messageText } from "./engine-texts";

describe("texts of the shared fields' messages", () => {
  it("has every field message, in every language, as a clause after the field's name", () => {
    for (const key of Object.values(FIELD_MESSAGES)) {
      expect(isTextKey(key), key).toBe(true);
      for (const lang of LANGUAGE_CODES) {
        const text = engineText(lang, key);
        expect(text, `${lang} ${key}`).not.toBe(key);
        expect(text.trim(), `${lang} ${key}`).toBe(text);
        if (lang !== "en") expect(text, `${lang} ${key}`).not.toBe(engineText("en", key));
      }
    }
  });

  it("turns a known key into words and leaves other messages as they are", () => {
    expect(messageText("en", "validation.symbol")).toBe("must be a symbol such as BTC_USDT");
    expect(messageText("fr", "validation.positive")).toBe("doit être supérieur à 0");
    expect(messageText("de", "must be buy or sell")).toBe("must be buy or sell");
    expect(messageText("de", "validation.trade_password")).toBe("validation.trade_password");
    expect(isTextKey("validation")).toBe(false);
    expect(isTextKey("validation.symbol.x")).toBe(false);
    expect(isTextKey("toString.x")).toBe(false);
  });

  it("describes a refused field in the reader's language", () => {
    const symbol = symbolField.safeParse("btc");
    const day = dayField.safeParse("1999-12-31");
    const issues = [...symbol.error!.issues.map((i) => ({ ...i, path: ["symbol"] })), ...day.error!.issues.map((i) => ({ ...i, path: ["from"] }))];
    expect(describeIssues(issues)).toBe("symbol: validation.symbol; from: validation.date_years");
    expect(describeIssues(issues, (m) => messageText("tr", m))).toBe(
      "symbol: BTC_USDT gibi bir işlem çifti olmalıdır; from: 2000-01-01 ile 2099-12-31 arasında olmalıdır",
    );
  });
});
