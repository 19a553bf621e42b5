import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeIssues } from "../../protocol/envelope";
import { FIELD_MESSAGES, dayField, symbolField } from "../../protocol/fields";
import { LANGUAGE_CODES } from "../../protocol/languages";
import { engineText, isTextKey, messageText, type TextKey } from "./engine-texts";

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

  it("has a text, in every language, for every validation key the protocol's schemas use", () => {
    const keys = new Set<string>();
    const scan = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) scan(path);
        else if (entry.name.endsWith(".ts")) for (const m of readFileSync(path, "utf8").matchAll(/"(validation\.[a-z_]+)"/g)) keys.add(m[1]!);
      }
    };
    scan(fileURLToPath(new URL("../../protocol", import.meta.url)));
    expect(keys.has("validation.trade_password")).toBe(true);
    for (const key of keys) {
      expect(isTextKey(key), key).toBe(true);
      for (const lang of LANGUAGE_CODES) {
        const text = engineText(lang, key as TextKey);
        expect(text, `${lang} ${key}`).not.toBe(key);
        if (lang !== "en") expect(text, `${lang} ${key}`).not.toBe(engineText("en", key as TextKey));
      }
    }
  });

  it("turns a known key into words and leaves other messages as they are", () => {
    expect(messageText("en", "validation.symbol")).toBe("must be a symbol such as BTC_USDT");
    expect(messageText("fr", "validation.positive")).toBe("doit être supérieur à 0");
    expect(messageText("de", "must be buy or sell")).toBe("must be buy or sell");
    expect(messageText("de", "validation.trade_password")).toBe("muss aus 6 Ziffern bestehen");
    expect(messageText("de", "validation.no_such_key")).toBe("validation.no_such_key");
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
