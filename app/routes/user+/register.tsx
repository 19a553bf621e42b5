import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { data, type MetaFunction, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { AccountTabs } from "~/components/account-tabs";
import { AccountFields } from "~/components/account-fields";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import * as f from "~/components/forms.css";
import { registerCheck } from "~/lib/forms/checks/auth";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { CodeField } from "~/components/code-field";
import { pageTitle } from "~/lib/use-shell";
import { loadAreaCodes } from "~/services/account/area-codes.server";
import { authPageContext, phoneFieldError, sendCodeReply } from "~/services/account/auth-page.server";
import { loginWithPassword } from "~/services/account/login.server";
import { getInviteCode } from "~/services/platform/session.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as s from "./user.css";
import { withEngine } from "~/services/engine/route.server";
import { engineRefused } from "~/services/platform/form-reply.server";
import { parseWithZod, registerSchema } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "user.register.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ engine, request }) => {
    const { url, accountType, areas } = await authPageContext(engine);
    return { accountType, areas, inviteCode: url.searchParams.get("invite_code") ?? (await getInviteCode(request)) ?? "" };
  });
}

const HIDE = ["password", "tradePassword", "code", "website"];

export function action(args: ActionFunctionArgs) {
  return withEngine(args, async ({ engine, request }) => {
    const formData = await request.formData();
    const areas = await engine.guard(() => loadAreaCodes(engine.lang));
    const intent = formData.get("intent");

    if (intent === "send-code")
      return sendCodeReply(engine, formData, { areas, purpose: "register", hide: HIDE, hideOnSuccess: ["password", "tradePassword", "website"] });

    const submission = parseWithZod(formData, { schema: registerSchema });
    if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDE }), codeSentAt: null, resendAfter: null }, { status: 400 });
    const invalidPhone = phoneFieldError(areas, submission.value);
    if (invalidPhone)
      return data({ result: submission.reply({ hideFields: HIDE, fieldErrors: invalidPhone }), codeSentAt: null, resendAfter: null }, { status: 400 });
    const body = submission.value;
    const created = await engine.attempt(() => engine.auth.register(body));
    if (!created.ok) return engineRefused(submission, created, { hideFields: HIDE, extra: { codeSentAt: null, resendAfter: null } });
    // Registered: log straight in.
    const login = await loginWithPassword(engine, { ...submission.value });
    if (login.kind !== "ok") return redirectWithToast(request, "/user/login", { type: "success", key: "auth.registered_login" });
    return redirectWithToast(request, "/account/center/info", { type: "success", key: "auth.registered" }, { headers: login.headers });
  });
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const { accountType: initialType, inviteCode, areas } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(registerCheck, {
    id: "register",
    lastResult: actionData?.result,
    defaultValue: { inviteCode },
  });
  const accountType = (fields.accountType.initialValue as string | undefined) ?? initialType;
  const sentTo = actionData && "sentTo" in actionData ? actionData.sentTo : null;
  return (
    <>
      <h1 className={s.title}>{t("user.register.title")}</h1>
      <AccountTabs current={accountType} base="/user/register" />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="accountType" value={accountType} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <AccountFields accountType={accountType} email={fields.email} areaCode={fields.areaCode} phone={fields.phone} areas={areas} emailAutoComplete="email" />
        <CodeField
          inputProps={getInputProps(fields.code, { type: "text" })}
          errors={fields.code.errors}
          sentAt={actionData?.codeSentAt}
          sentTo={sentTo}
          resendAfter={actionData?.resendAfter ?? undefined}
        />
        <Field
          label={t("auth.password")}
          hint={t("auth.password_hint")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
        />
        <Field
          label={t("auth.trade_password_optional")}
          hint={t("auth.trade_password_hint")}
          inputProps={{ ...getInputProps(fields.tradePassword, { type: "password" }), autoComplete: "off", inputMode: "numeric", maxLength: 6 }}
          errors={fields.tradePassword.errors}
        />
        <Field
          label={t("auth.invite_code_optional")}
          inputProps={{ ...getInputProps(fields.inviteCode, { type: "text" }), autoComplete: "off" }}
          errors={fields.inviteCode.errors}
        />
        <Honeypot />
        <SubmitButton name="intent" value="register">
          {t("user.register.submit")}
        </SubmitButton>
      </Form>
      <p className={s.switchLine}>
        {t("user.register.have_account")} <Link to="/user/login">{t("header.login")}</Link>
      </p>
    </>
  );
}

/** Hidden from people, tempting to bots: a filled honeypot refuses the registration (this page's only: kept out of the form components every form page loads). */
function Honeypot() {
  return (
    <div className={f.honeypot} aria-hidden="true">
      <label htmlFor="website">Website</label>
      <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}
