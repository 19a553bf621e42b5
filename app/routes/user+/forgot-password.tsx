import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { type SubmissionResult } from "@conform-to/react";
import { data, type MetaFunction, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { AccountFields } from "~/components/account-fields";
import { AccountTabs } from "~/components/account-tabs";
import { CodeField } from "~/components/code-field";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { resetPasswordCheck } from "~/lib/forms/checks/auth";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { pageTitle } from "~/lib/use-shell";
import { loadAreaCodes } from "~/services/account/area-codes.server";
import { authPageContext, sendCodeReply } from "~/services/account/auth-page.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as s from "./user.css";
import { withEngine } from "~/services/engine/route.server";
import { engineRefused } from "~/services/platform/form-reply.server";
import { parseWithZod, resetPasswordSchema } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "user.forgot.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ engine }) => {
    const { accountType, areas } = await authPageContext(engine);
    return { accountType, areas };
  });
}

const HIDE = ["password", "password1", "code"];

/**
 * A forgotten password: "Send code" sends a `reset` code to the account's e-mail or phone (the
 * engine answers the same whether the account exists or not), then the code and the new password
 * set it; every session of the account ends and the member logs in again.
 */
export function action(args: ActionFunctionArgs) {
  return withEngine(args, async ({ engine, request }) => {
    const formData = await request.formData();
    const areas = await engine.guard(() => loadAreaCodes(engine.lang));
    if (formData.get("intent") === "send-code")
      return sendCodeReply(engine, formData, { areas, purpose: "reset", hide: HIDE, hideOnSuccess: ["password", "password1"] });
    const refused = (result: SubmissionResult<string[]>) =>
      data({ result, codeSentAt: null as number | null, resendAfter: null as number | null }, { status: 400 });

    const submission = parseWithZod(formData, { schema: resetPasswordSchema });
    if (submission.status !== "success") return refused(submission.reply({ hideFields: HIDE }));
    const body = submission.value;
    const done = await engine.attempt(() => engine.auth.resetPassword(body));
    if (!done.ok)
      return engineRefused(submission, done, { hideFields: HIDE, extra: { codeSentAt: null as number | null, resendAfter: null as number | null } });
    return redirectWithToast(request, `/user/login${submission.value.accountType === "phone" ? "?type=phone" : ""}`, {
      type: "success",
      key: "auth.password_reset",
    });
  });
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { accountType: initialType, areas } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(resetPasswordCheck, {
    id: "forgot-password",
    lastResult: actionData?.result,
  });
  const accountType = (fields.accountType.initialValue as string | undefined) ?? initialType;
  const sentTo = actionData && "sentTo" in actionData && typeof actionData.sentTo === "string" ? actionData.sentTo : null;
  return (
    <>
      <h1 className={s.title}>{t("user.forgot.title")}</h1>
      <p className={s.intro}>{t("user.forgot.intro")}</p>
      <AccountTabs current={accountType} base="/user/forgot-password" />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="accountType" value={accountType} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <AccountFields
          accountType={accountType}
          email={fields.email}
          areaCode={fields.areaCode}
          phone={fields.phone}
          areas={areas}
          emailAutoComplete="username"
        />
        <CodeField
          inputProps={getInputProps(fields.code, { type: "text" })}
          errors={fields.code.errors}
          sentAt={actionData?.codeSentAt}
          sentTo={sentTo}
          resendAfter={actionData?.resendAfter ?? undefined}
        />
        <Field
          label={t("user.forgot.new_password")}
          hint={t("auth.password_hint")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
        />
        <Field
          label={t("user.forgot.repeat_password")}
          inputProps={{ ...getInputProps(fields.password1, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password1.errors}
        />
        <SubmitButton name="intent" value="reset">
          {t("user.forgot.submit")}
        </SubmitButton>
      </Form>
      <p className={s.switchLine}>
        <Link to="/user/login">{t("user.forgot.back")}</Link>
      </p>
    </>
  );
}
