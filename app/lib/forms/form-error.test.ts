import { describe, expect, it } from "vitest";
import { formErrorText, keyError, readFormError, refusalError, textError } from "./form-error";

const t = (key: string, values?: Record<string, unknown>) => `<${key}${values && Object.keys(values).length ? JSON.stringify(values) : ""}>`;

describe("form errors", () => {
  it("reads a plain string as a key, whatever its shape", () => {
    expect(readFormError("validation.email")).toEqual({ key: "validation.email" });
    expect(readFormError("Invalid")).toEqual({ key: "Invalid" });
  });

  it("keeps an engine message as text, even when it looks like a key", () => {
    expect(readFormError(textError("Insufficient available balance"))).toEqual({ text: "Insufficient available balance" });
    expect(readFormError(textError("errors.unknown"))).toEqual({ text: "errors.unknown" });
    expect(formErrorText(textError("Code falsch."), t)).toBe("Code falsch.");
  });

  it("carries a key's values", () => {
    const error = keyError("validation.number.scale", { max: 2 });
    expect(readFormError(error)).toEqual({ key: "validation.number.scale", values: { max: 2 } });
    expect(formErrorText(error, t, { field: "Price" })).toBe('<validation.number.scale{"field":"Price","max":2}>');
    expect(keyError("validation.code")).toBe("validation.code");
  });

  it("words a refusal without a message as the generic text", () => {
    expect(readFormError(refusalError(null))).toEqual({ key: "errors.unknown" });
    expect(readFormError(refusalError(""))).toEqual({ key: "errors.unknown" });
    expect(readFormError(refusalError("Wrong code"))).toEqual({ text: "Wrong code" });
  });
});
