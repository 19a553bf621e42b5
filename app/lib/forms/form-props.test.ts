import * as conform from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { getFormProps, getInputProps, getSelectProps } from "./form-props";
import type { ExchangeField, ExchangeFormState } from "./use-exchange-form";

const field = (over: Partial<ExchangeField> = {}): ExchangeField => ({
  name: "email",
  id: "f-email",
  formId: "f",
  errorId: "f-email-error",
  ...over,
});

// Conform's helpers read plain metadata objects; ours are given the same ones.
const asConform = (value: unknown) => value as any;

describe("form props (decision 037): what conform's helpers write", () => {
  it.each([
    ["a required field with a value", field({ required: true, initialValue: "a@b.co" }), { type: "email" as const }],
    ["a field with errors", field({ errors: ["validation.email"] }), { type: "email" as const }],
    ["a pattern and lengths", field({ required: true, pattern: "on|off", minLength: 1, maxLength: 6 }), { type: "text" as const }],
    ["a described field", field({ errors: ["x"] }), { type: "text" as const, ariaDescribedBy: "hint" }],
    ["a checked checkbox", field({ initialValue: "on" }), { type: "checkbox" as const, value: "on" }],
    ["an unchecked checkbox", field({}), { type: "checkbox" as const }],
  ])("%s", (_name, metadata, options) => {
    expect(getInputProps(metadata, options)).toEqual(conform.getInputProps(asConform(metadata), asConform(options)));
  });

  it("selects and forms", () => {
    const select = field({ name: "from", required: true, initialValue: "spot" });
    expect(getSelectProps(select)).toEqual(conform.getSelectProps(asConform(select)));
    const form = { id: "f", errorId: "f-error", errors: ["text:refused"], noValidate: true, onSubmit: () => {} } as unknown as ExchangeFormState;
    expect(getFormProps(form)).toEqual(conform.getFormProps(asConform(form)));
    const clean = { ...form, errors: undefined };
    expect(getFormProps(clean)).toEqual(conform.getFormProps(asConform(clean)));
  });
});
