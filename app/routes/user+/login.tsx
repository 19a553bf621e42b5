import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { data, type MetaFunction, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { AccountTabs } from "~/components/account-tabs";
import { AccountFields } from "~/components/account-fields";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { loginCheck } from "~/lib/forms/checks/auth";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { pageTitle } from "~/lib/use-shell";
import { authPageContext, loadDemoAccount } from "~/services/account/auth-page.server";
import { authenticator, PASSWORD_LOGIN } from "~/services/account/authenticator.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as s from "./user.css";
import { withEngine } from "~/services/engine/route.server";
import { engineRefused } from "~/services/platform/form-reply.server";
import { localPath } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "user.login.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ engine }) => {
    const [{ url, accountType, areas }, demo] = await Promise.all([authPageContext(engine), loadDemoAccount(engine)]);
    return { accountType, areas, demo, redirectTo: localPath.parse(url.searchParams.get("redirectTo") ?? "/account/center/info") };
  });
}

export function action(args: ActionFunctionArgs) {
  return withEngine(args, async ({ request }) => {
    const attempt = await authenticator.authenticate(PASSWORD_LOGIN, request);
    const { form, submission } = attempt;
    const hideFields = ["password", "googleCode"];
    if (attempt.kind === "invalid") return data({ result: submission.reply({ hideFields }), needGoogle: form.has("googleCode") }, { status: 400 });
    if (attempt.kind === "google") {
      const googleCode = submission.status === "success" ? submission.value.googleCode : undefined;
      return data({ result: submission.reply({ hideFields, formErrors: googleCode ? [] : ["auth.google_needed"] }), needGoogle: true }, { status: 400 });
    }
    if (attempt.kind === "refused") {
      return engineRefused(submission, attempt, { hideFields, extra: { needGoogle: form.has("googleCode") } });
    }
    const redirectTo = localPath.parse(form.get("redirectTo") ?? "/account/center/info");
    return redirectWithToast(request, redirectTo, { type: "success", key: "auth.logged_in" }, { headers: attempt.headers });
  });
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { accountType: initialType, redirectTo, areas, demo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(loginCheck, {
    id: "login",
    lastResult: actionData?.result,
  });
  const accountType = (fields.accountType.initialValue as string | undefined) ?? initialType;
  const needGoogle = actionData?.needGoogle ?? false;
  return (
    <>
      <h1 className={s.title}>{t("user.login.title")}</h1>
      <AccountTabs current={accountType} base="/user/login" />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="accountType" value={accountType} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <AccountFields
          accountType={accountType}
          email={fields.email}
          areaCode={fields.areaCode}
          phone={fields.phone}
          areas={areas}
          emailAutoComplete="username"
        />
        <Field
          label={t("auth.password")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
        />
        <p className={s.forgotLine}>
          <Link to={`/user/forgot-password${accountType === "phone" ? "?type=phone" : ""}`}>{t("user.login.forgot")}</Link>
        </p>
        {needGoogle ? (
          <Field
            label={t("auth.google_code")}
            hint={t("auth.google_hint")}
            inputProps={{ ...getInputProps(fields.googleCode, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
            errors={fields.googleCode.errors}
          />
        ) : null}
        <SubmitButton>{t("user.login.submit")}</SubmitButton>
      </Form>
      <p className={s.switchLine}>
        {t("user.login.no_account")} <Link to="/user/register">{t("header.register")}</Link>
      </p>
      {demo ? (
        <section className={s.demo} aria-labelledby="demo-title">
          <h2 id="demo-title" className={s.demoTitle}>
            {t("user.login.demo_title")}
          </h2>
          <p className={s.demoText}>{t("user.login.demo_text", { account: demo.account, password: demo.password })}</p>
          <Form method="post">
            <input type="hidden" name="accountType" value="email" />
            <input type="hidden" name="email" value={demo.account} />
            <input type="hidden" name="password" value={demo.password} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button type="submit" className={s.demoButton}>
              {t("user.login.demo_submit")}
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
