import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { data, type MetaFunction, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { KYC_STATUS } from "#protocol/member-states";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { ImageUpload } from "~/components/image-upload";
import { MAX_ID_IMAGE_BYTES } from "#protocol/limits";
import { kycCheck } from "~/lib/forms/checks/account";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { formatDateTime } from "~/lib/dates";
import { useMemberInfo } from "~/lib/use-member-info";
import { pageTitle, useShell } from "~/lib/use-shell";
import { imageTypeErrors, readKycForm } from "~/services/account/kyc.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";
import { engineRefused } from "~/services/platform/form-reply.server";
import { kycSchema, parseWithZod } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.kyc.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => ({ kyc: await engine.kyc.status() }));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const { formData, tooLarge } = await readKycForm(request);
    if (!formData || tooLarge) {
      const empty = parseWithZod(new FormData(), { schema: kycSchema });
      return data({ result: empty.reply({ formErrors: ["validation.id_image_size"] }) }, { status: 400 });
    }
    const submission = parseWithZod(formData, { schema: kycSchema });
    const hideFields = ["front", "back", "hand"];
    if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
    const typeErrors = await imageTypeErrors(submission.value);
    if (typeErrors) return data({ result: submission.reply({ hideFields, fieldErrors: typeErrors }) }, { status: 400 });
    const sent = await engine.attempt(() => engine.kyc.submit(submission.value));
    if (!sent.ok) return engineRefused(submission, sent, { hideFields });
    return redirectWithToast(request, "/account/center/kyc", { type: "success", key: "account.kyc.submitted" });
  });
}

const STATUS_KEYS = { 0: "none", 1: "review", 2: "approved", 3: "rejected" } as const;
/** The three ID images (as `KYC_FILE_FIELDS` of the schema, which this page does not load). */
const ID_IMAGES = ["front", "back", "hand"] as const;

/** Identity verification (spec §3 KYC): ID front, ID back, ID with hand, phone; state and rejection reason. */
export default function KycPage() {
  const { t } = useTranslation();
  const { kyc } = useLoaderData<typeof loader>();
  const info = useMemberInfo();
  const { lang } = useShell();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(kycCheck, {
    id: "kyc",
    lastResult: actionData?.result,
    defaultValue: { phone: info.phone ? `+${info.areaCode}${info.phone}` : "" },
  });
  const canSubmit = kyc.status === KYC_STATUS.none || kyc.status === KYC_STATUS.rejected;
  const fileProps = (field: typeof fields.front) => ({ ...getInputProps(field, { type: "file" }), accept: "image/jpeg,image/png,image/bmp,image/gif" });
  return (
    <>
      <section className={s.card} aria-labelledby="kyc-title">
        <h1 id="kyc-title" className={s.title}>
          {t("account.kyc.title")}
        </h1>
        <p>
          {t("account.kyc.state")}:{" "}
          <strong className={kyc.status === KYC_STATUS.approved ? s.on : undefined} data-testid="kyc-state">
            {t(`account.kyc.status.${STATUS_KEYS[kyc.status]}`)}
          </strong>
        </p>
        {kyc.status === KYC_STATUS.rejected && kyc.reason ? (
          <p role="note">
            {t("account.kyc.reason")}: {kyc.reason}
          </p>
        ) : null}
        {kyc.submittedAt ? (
          <p className={s.muted}>
            {t("account.kyc.submitted_at")}: {formatDateTime(kyc.submittedAt, lang)}
          </p>
        ) : null}
      </section>
      {canSubmit ? (
        <section className={`${s.card} ${s.narrow}`} aria-labelledby="kyc-form-title">
          <h2 id="kyc-form-title" className={s.subtitle}>
            {kyc.status === KYC_STATUS.rejected ? t("account.kyc.resubmit") : t("account.kyc.submit_title")}
          </h2>
          <p className={s.muted} style={{ marginBottom: 16 }}>
            {t("account.kyc.rules")}
          </p>
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
            <FormErrors id={form.errorId} errors={form.errors} />
            {ID_IMAGES.map((name) => (
              <ImageUpload
                key={name}
                label={t(`account.kyc.${name}`)}
                inputProps={fileProps(fields[name])}
                errors={fields[name].errors}
                hint={t("account.kyc.image_hint")}
                maxBytes={MAX_ID_IMAGE_BYTES}
              />
            ))}
            <Field
              label={t("account.kyc.phone")}
              inputProps={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "tel" }}
              errors={fields.phone.errors}
            />
            <SubmitButton>{t("account.kyc.submit")}</SubmitButton>
          </Form>
        </section>
      ) : null}
    </>
  );
}
