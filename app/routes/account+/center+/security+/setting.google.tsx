import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { googleCheck } from "~/lib/forms/checks/account";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { CodeField } from "~/components/code-field";
import { useMemberInfo } from "~/lib/use-member-info";
import { pageTitle } from "~/lib/use-shell";
import { qrSvg } from "~/services/platform/qr.server";
import { handleSecurityForm } from "~/services/account/security-form.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";
import { googleSchema } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.google.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => {
    const info = await engine.member.info();
    // Bound already, or the demo member (whose settings are locked): nothing to set up.
    if (info.googleBound || info.demo) return { setup: null };
    const setup = await engine.security.googleSetup();
    return { setup: { secret: setup.secret, qr: await qrSvg(setup.otpauthUri) } };
  });
}

/** Binds Google 2FA (mode 2) when it is off, resets it (mode 1) when it is on. */
export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) =>
    handleSecurityForm(engine, {
      schema: googleSchema,
      hideFields: ["googleCode", "code"],
      save: async (value) => {
        const info = await engine.member.info();
        return engine.security.bindOrResetGoogle({ googleCode: value.googleCode, code: value.code, bound: info.googleBound });
      },
      done: { to: "/account/center/security", key: (saved) => (saved.googleBound ? "account.google.bound" : "account.google.unbound") },
    }),
  );
}

export default function GooglePage() {
  const { t } = useTranslation();
  const info = useMemberInfo();
  const { setup } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(googleCheck, {
    id: "google",
    lastResult: actionData?.result,
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="google-title">
      <h1 id="google-title" className={s.title}>
        {info.googleBound ? t("account.google.title_reset") : t("account.google.title")}
      </h1>
      {setup ? (
        <>
          <ol className={s.steps}>
            <li>{t("account.google.step_install")}</li>
            <li>{t("account.google.step_scan")}</li>
          </ol>
          <figure className={s.qr}>
            <div role="img" aria-label={t("account.google.qr_label")} dangerouslySetInnerHTML={{ __html: setup.qr }} />
            <figcaption>
              {t("account.google.secret")}: <code data-testid="google-secret">{setup.secret}</code>
            </figcaption>
          </figure>
          <p className={s.muted}>{t("account.google.step_confirm")}</p>
        </>
      ) : (
        <p className={s.muted} style={{ marginBottom: 16 }}>
          {t("account.google.reset_notice")}
        </p>
      )}
      <Form method="post" {...getFormProps(form)} style={{ marginTop: 16 }}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("auth.google_code")}
          inputProps={{ ...getInputProps(fields.googleCode, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
          errors={fields.googleCode.errors}
        />
        <CodeField
          hint={t("account.security.code_hint")}
          inputProps={getInputProps(fields.code, { type: "text" })}
          errors={fields.code.errors}
          sentAt={actionData?.sentAt}
          sentTo={actionData?.sentTo}
          resendAfter={actionData?.resendAfter ?? undefined}
        />
        <SubmitButton name="intent" value="save">
          {info.googleBound ? t("account.google.reset") : t("account.google.bind")}
        </SubmitButton>
      </Form>
    </section>
  );
}
