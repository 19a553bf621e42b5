import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import { Field } from "./forms";
import { SendCodeButton } from "./send-code-button";

/**
 * A six-digit verification code field with its send button. Once a code was sent, the hint says
 * where to; before that it shows `hint` (if any).
 */
export function CodeField({
  inputProps,
  errors,
  sentAt,
  sentTo,
  resendAfter,
  hint,
}: {
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
  errors?: string[];
  sentAt?: number | null;
  sentTo?: string | null;
  resendAfter?: number;
  hint?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t("auth.code")}
      hint={sentTo ? <span role="status">{t("auth.code_sent", { destination: sentTo })}</span> : hint}
      inputProps={{ ...inputProps, autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
      errors={errors}
      addon={<SendCodeButton sentAt={sentAt} resendAfterSeconds={resendAfter} />}
    />
  );
}
