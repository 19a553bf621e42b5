import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { PhoneFields } from "~/components/account-fields";
import { FormErrors, SubmitButton } from "~/components/forms";
import { bindPhoneCheck } from "~/lib/forms/checks/bind";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { CodeField } from "~/components/code-field";
import { maskAccount } from "~/lib/mask";
import { useMemberInfo } from "~/lib/use-member-info";
import { pageTitle } from "~/lib/use-shell";
import { loadAreaCodes } from "~/services/account/area-codes.server";
import { bindAccountAction } from "~/services/account/bind-account.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.bind.phone_title") }];

export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => ({ areas: await engine.guard(() => loadAreaCodes(engine.lang)) }));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => bindAccountAction(engine, "phone"));
}

export default function BindPhonePage() {
  const { t } = useTranslation();
  const info = useMemberInfo();
  const { areas } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(bindPhoneCheck, {
    id: "bind-phone",
    lastResult: actionData?.result,
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="bind-phone-title">
      <h1 id="bind-phone-title" className={s.title}>
        {t("account.bind.phone_title")}
      </h1>
      {info.phone ? (
        <p>{t("account.bind.current", { account: `+${info.areaCode} ${maskAccount(info.phone)}` })}</p>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <PhoneFields areaCode={fields.areaCode} phone={fields.phone} areas={areas} />
          <CodeField
            inputProps={getInputProps(fields.code, { type: "text" })}
            errors={fields.code.errors}
            sentAt={actionData?.sentAt}
            sentTo={actionData?.sentTo}
            resendAfter={actionData?.resendAfter ?? undefined}
          />
          <SubmitButton name="intent" value="save">
            {t("account.bind.submit")}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
