import type { LanguageCode } from "../../protocol/languages";
import { engineText, type TextKey } from "./engine-texts";

/**
 * A request an area service turns down on purpose (not a bug): the result code the caller is
 * answered with, and the text as a catalog key, translated at the HTTP edge into the request's
 * language. Services throw it so they need neither the request nor its language
 * (docs/decisions/020-engine-area-shape.md). Words that are not in the catalog (operator calls,
 * the configuration tables' column checks) are carried as they are.
 */
export class Refusal extends Error {
  private constructor(
    readonly code: number,
    private readonly text: { key: TextKey; params: Record<string, string | number> } | { plain: string },
  ) {
    super("key" in text ? text.key : text.plain);
    this.name = "Refusal";
  }

  /** A refusal worded by the catalog entry `key` (with its `{{params}}`). */
  static of(code: number, key: TextKey, params: Record<string, string | number> = {}): Refusal {
    return new Refusal(code, { key, params });
  }

  /** A refusal in words outside the catalog (operators', generic table checks): never translated. */
  static plain(code: number, message: string): Refusal {
    return new Refusal(code, { plain: message });
  }

  /** The words the caller reads, in their language. */
  messageIn(lang: LanguageCode): string {
    return "key" in this.text ? engineText(lang, this.text.key, this.text.params) : this.text.plain;
  }
}
