import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { readFormError } from "~/lib/forms/form-error";
import { engineRefused } from "./form-reply.server";

const schema = z.object({ email: z.string(), password: z.string() });
const form = () => {
  const formData = new FormData();
  formData.set("email", "a@example.com");
  formData.set("password", "secret");
  return parseWithZod(formData, { schema });
};

describe("engineRefused", () => {
  it("answers 400 with the engine's message as a text form error, the hidden fields dropped, the extra data kept", () => {
    const answer = engineRefused(form(), { message: "Wrong password" }, { hideFields: ["password"], extra: { needGoogle: false } });
    expect(answer.init?.status).toBe(400);
    expect(answer.data.needGoogle).toBe(false);
    expect(answer.data.result.error?.[""]?.map(readFormError)).toEqual([{ text: "Wrong password" }]);
    expect(answer.data.result.initialValue).toEqual({ email: "a@example.com" });
  });

  it("uses the generic key when the refusal has no message", () => {
    const answer = engineRefused(form(), { message: null });
    expect(answer.data.result.error?.[""]?.map(readFormError)).toEqual([{ key: "errors.unknown" }]);
    expect(answer.data.result.initialValue).toMatchObject({ password: "secret" });
  });
});
