import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { data, redirect, type MetaFunction, type ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { changePasswordCheck } from "~/lib/forms/checks/account";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { pageTitle } from "~/lib/use-shell";
import { toastHeader } from "~/services/platform/toast.server";
import * as s from "~/styles/account-center.css";
import { logOutHeaders } from "~/services/account/auth.server";
import { withMember } from "~/services/engine/route.server";
import { engineRefused } from "~/services/platform/form-reply.server";
import { changePasswordSchema, parseWithZod } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.login_pwd.title") }];

/** Changing the login password ends every session (engine side); the member logs in again. */
export function action(args: ActionFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const submission = parseWithZod(await request.formData(), { schema: changePasswordSchema });
    const hideFields = ["oldPassword", "newPassword", "newPassword1"];
    if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
    const result = await engine.attempt(() => engine.security.changePassword(submission.value));
    if (!result.ok) return engineRefused(submission, result, { hideFields });
    // Every session ended with the change: log out here too (this cookie wins over a refreshed one).
    const headers = await logOutHeaders(request);
    headers.append("set-cookie", await toastHeader(request, { type: "success", key: "account.login_pwd.changed" }));
    return redirect("/user/login", { headers });
  });
}

export default function LoginPasswordPage() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(changePasswordCheck, {
    id: "login-pwd",
    lastResult: actionData?.result,
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="login-pwd-title">
      <h1 id="login-pwd-title" className={s.title}>
        {t("account.login_pwd.title")}
      </h1>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t("account.login_pwd.notice")}
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("account.login_pwd.old")}
          inputProps={{ ...getInputProps(fields.oldPassword, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.oldPassword.errors}
        />
        <Field
          label={t("account.login_pwd.new")}
          hint={t("auth.password_hint")}
          inputProps={{ ...getInputProps(fields.newPassword, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.newPassword.errors}
        />
        <Field
          label={t("account.login_pwd.confirm")}
          inputProps={{ ...getInputProps(fields.newPassword1, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.newPassword1.errors}
        />
        <SubmitButton>{t("account.login_pwd.submit")}</SubmitButton>
      </Form>
    </section>
  );
}
