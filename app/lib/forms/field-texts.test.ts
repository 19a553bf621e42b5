import { describe, expect, it } from "vitest";
import { FIELD_MESSAGES } from "#protocol/fields";
import { deviceIdField } from "#protocol/member";
import de from "~/locales/de.json";
import en from "~/locales/en.json";
import es from "~/locales/es.json";
import fr from "~/locales/fr.json";
import jp from "~/locales/jp.json";
import kr from "~/locales/kr.json";
import tr from "~/locales/tr.json";
import zh_cn from "~/locales/zh_cn.json";
import zh_tw from "~/locales/zh_tw.json";

/** The message a shared field gives a refused value (its text key). */
const messageOf = (field: { safeParse(value: unknown): { error?: { issues: Array<{ message: string }> } } }, refused: unknown) =>
  field.safeParse(refused).error?.issues[0]?.message ?? "";

/** The shared fields the web's forms compose (entrust filter and cancel, order form's key, a device's rename). */
const SHOWN = [
  FIELD_MESSAGES.symbol,
  FIELD_MESSAGES.orderId,
  FIELD_MESSAGES.idempotencyKey,
  FIELD_MESSAGES.date,
  FIELD_MESSAGES.dateYears,
  messageOf(deviceIdField, "1"),
];

describe("web texts of the shared fields' messages", () => {
  it("gives text keys, not words, as messages", () => {
    for (const key of SHOWN) expect(key).toMatch(/^validation\.[a-z_]+$/);
  });

  it("has each shown key in all nine languages", () => {
    for (const [lang, catalog] of Object.entries({ zh_cn, zh_tw, en, kr, jp, es, de, fr, tr })) {
      const validation = catalog.validation as Record<string, unknown>;
      for (const key of SHOWN) {
        const text = validation[key.replace(/^validation\./, "")];
        expect(typeof text, `${lang} ${key}`).toBe("string");
        expect(text, `${lang} ${key}`).not.toBe(key);
      }
    }
  });
});
