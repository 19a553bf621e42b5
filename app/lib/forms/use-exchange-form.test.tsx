import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { changePasswordCheck } from "./checks/account";
import { bindEmailCheck } from "./checks/bind";
import { spotOrderCheck } from "./checks/order";
import { getFormProps, getInputProps } from "./form-props";
import { useExchangeForm } from "./use-exchange-form";

function PasswordForm() {
  const [form, fields] = useExchangeForm(changePasswordCheck, { id: "pwd" });
  return (
    <form method="post" {...getFormProps(form)}>
      <input {...getInputProps(fields.oldPassword, { type: "password" })} />
    </form>
  );
}

function EmailForm() {
  const [form, fields] = useExchangeForm(bindEmailCheck, {
    id: "email",
    lastResult: { status: "error", initialValue: { email: "x" }, error: { email: ["validation.email"] } },
  });
  return (
    <form method="post" {...getFormProps(form)}>
      <input {...getInputProps(fields.email, { type: "email" })} />
      <input {...getInputProps(fields.code, { type: "text" })} />
    </form>
  );
}

function OrderForm() {
  const check = spotOrderCheck({ priceScale: 2, amountScale: 4, quoteScale: 2 }, ",");
  const [form, fields] = useExchangeForm(check, { id: "order", shouldValidate: "onSubmit" });
  return (
    <form method="post" {...getFormProps(form)}>
      <input {...getInputProps(fields.price, { type: "text" })} />
    </form>
  );
}

/** The `<input …>` tag of the field named `name`. */
const inputTag = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";

describe("useExchangeForm", () => {
  it("gives the inputs the schema's constraints, and leaves the form to the server without JavaScript", () => {
    const html = renderToStaticMarkup(<PasswordForm />);
    expect(html).toMatch(/<form[^>]*novalidate=""/);
    expect(inputTag(html, "oldPassword")).toContain('required=""');
  });

  it("shows the action's reply: the typed value and the field's error", () => {
    const html = renderToStaticMarkup(<EmailForm />);
    const email = inputTag(html, "email");
    expect(email).toContain('required=""');
    expect(email).toContain('value="x"');
    expect(email).toContain('aria-invalid="true"');
    // The code is optional until a code was sent: not required.
    expect(inputTag(html, "code")).not.toContain("required");
  });

  it("puts no browser pattern, step or required on an exact decimal field (decision 014)", () => {
    const html = renderToStaticMarkup(<OrderForm />);
    const price = inputTag(html, "price");
    expect(price).not.toBe("");
    expect(price).not.toMatch(/pattern=|step=|required|min=|max=/);
  });
});
