/**
 * A form's error is either a text key (translated where it is shown, with its values) or a text
 * that is already in the member's language (the engine's refusal). Conform carries errors as
 * strings, so the two travel encoded with an explicit prefix; nothing is guessed from a string's
 * shape. A plain string is a key: that is what the zod schemas' messages are.
 */
export type FormError = { key: string; values?: Record<string, string | number> } | { text: string };

const TEXT = "text:";
const KEY = "key:";

/** The encoded error of a text already in the member's language (an engine message). */
export function textError(text: string): string {
  return TEXT + text;
}

/** The encoded error of a text key, with the values its text needs. */
export function keyError(key: string, values?: Record<string, string | number>): string {
  return values ? KEY + JSON.stringify({ key, values }) : key;
}

/** An engine refusal as a form error: its message, or the generic key when it came without one. */
export function refusalError(message: string | null | undefined): string {
  return message ? textError(message) : keyError("errors.unknown");
}

/** What an encoded error says. */
export function readFormError(error: string): FormError {
  if (error.startsWith(TEXT)) return { text: error.slice(TEXT.length) };
  if (error.startsWith(KEY)) {
    const { key, values } = JSON.parse(error.slice(KEY.length)) as { key: string; values?: Record<string, string | number> };
    return { key, values };
  }
  return { key: error };
}

/** The words of an error: `translate` for a key (with `extra` values, e.g. the field's label), the text as is. */
export function formErrorText(error: string, translate: (key: string, values?: Record<string, unknown>) => string, extra?: Record<string, unknown>) {
  const read = readFormError(error);
  return "text" in read ? read.text : translate(read.key, { ...extra, ...read.values });
}
