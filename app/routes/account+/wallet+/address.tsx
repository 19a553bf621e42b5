import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "~/lib/i18n";
import { CodeField } from "~/components/code-field";
import { DataTable } from "~/components/data-table";
import { PageErrorBoundary } from "~/components/error-page";
import { Field, FormErrors, SelectField, SubmitButton } from "~/components/forms";
import { addAddressCheck, whitelistCheck } from "~/lib/forms/checks/address-book";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { formatDateTime } from "~/lib/dates";
import { pageTitle, useShell } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { addressBookAction, loadAddressBook } from "~/services/wallet/address-book.server";
import * as s from "~/styles/account-center.css";
import * as w from "~/styles/wallet.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "wallet.address_book.title") }];

/** The withdrawal address book and its whitelist mode (issue 12 "Beyond the spec", decision 029). */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadAddressBook(engine));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => addressBookAction(engine));
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AddressBookPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { book, choices, googleBound, demo, now } = useLoaderData<typeof loader>();
  const when = (iso: string) => formatDateTime(iso, lang);
  return (
    <>
      <section className={s.card} aria-labelledby="address-book-title">
        <h1 id="address-book-title" className={s.title}>
          {t("wallet.address_book.title")}
        </h1>
        <p className={s.muted} style={{ marginBottom: 16 }}>
          {t(book.whitelist ? "wallet.address_book.intro_whitelist" : "wallet.address_book.intro")}
        </p>
        <DataTable
          rows={book.addresses}
          rowKey={(a) => a.id}
          name={{ labelledBy: "address-book-title" }}
          empty={t("wallet.address_book.empty")}
          testId="address-book"
          columns={[
            { key: "label", header: t("wallet.address_book.label"), cell: (a) => a.label },
            { key: "coin", header: t("wallet.withdrawals.coin"), cell: (a) => `${a.coin} · ${a.network}` },
            {
              key: "address",
              header: t("wallet.withdrawals.address"),
              cell: (a) => (
                <>
                  <span className={w.savedAddress}>{a.address}</span>
                  {a.memo !== null ? <span className={w.savedTag}>{t("wallet.withdrawals.memo", { memo: a.memo })}</span> : null}
                </>
              ),
            },
            book.whitelist && {
              key: "usable",
              header: t("wallet.address_book.usable"),
              kind: "status",
              cell: (a) =>
                Date.parse(a.usableFrom) <= now ? (
                  <span className={s.on}>{t("wallet.address_book.usable_now")}</span>
                ) : (
                  <span className={s.off}>{t("wallet.address_book.usable_from", { time: when(a.usableFrom) })}</span>
                ),
            },
            !demo && {
              key: "actions",
              header: <span className="visually-hidden">{t("wallet.assets.actions")}</span>,
              cell: (a) => (
                <Form method="post" className={s.inlineForm}>
                  <input type="hidden" name="id" value={a.id} />
                  <button type="submit" name="intent" value="delete" className={s.action} aria-label={t("wallet.address_book.delete_one", { label: a.label })}>
                    {t("wallet.address_book.delete")}
                  </button>
                </Form>
              ),
            },
          ]}
        />
      </section>
      {demo ? (
        <section className={s.card}>
          <p className={s.muted}>{t("wallet.address_book.demo")}</p>
        </section>
      ) : (
        <>
          {/* Keyed by what a success changes, so a form starts empty again once it has done its work. */}
          <AddAddressForm key={book.addresses[0]?.id ?? "none"} choices={choices} />
          <WhitelistForm
            key={String(book.whitelist)}
            whitelist={book.whitelist}
            since={book.whitelistSince ? when(book.whitelistSince) : null}
            googleBound={googleBound}
          />
        </>
      )}
    </>
  );
}

/** Each form reads back only its own answer: the add form's is marked, the whitelist form's carries `sentAt`. */
function useReplies() {
  const actionData = useActionData<typeof action>();
  return {
    add: actionData && "form" in actionData ? actionData : undefined,
    whitelist: actionData && "sentAt" in actionData ? actionData : undefined,
  };
}

function AddAddressForm({ choices }: { choices: PageData["choices"] }) {
  const { t } = useTranslation();
  const reply = useReplies().add;
  const [form, fields] = useExchangeForm(addAddressCheck, {
    id: "address-add",
    lastResult: reply?.result,
    defaultValue: { coinNetwork: choices[0]?.value },
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="address-add-title">
      <h2 id="address-add-title" className={s.subtitle}>
        {t("wallet.address_book.add_title")}
      </h2>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField label={t("wallet.address_book.coin_network")} selectProps={getSelectProps(fields.coinNetwork)} errors={fields.coinNetwork.errors}>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.coin} · {c.network} ({c.name})
            </option>
          ))}
        </SelectField>
        <Field
          label={t("wallet.address_book.address")}
          hint={t("wallet.address_book.address_hint")}
          inputProps={{ ...getInputProps(fields.address, { type: "text" }), autoComplete: "off", spellCheck: false }}
          errors={fields.address.errors}
        />
        <Field
          label={t("wallet.address_book.memo")}
          hint={t("wallet.address_book.memo_hint")}
          inputProps={{ ...getInputProps(fields.memo, { type: "text" }), autoComplete: "off", inputMode: "numeric" }}
          errors={fields.memo.errors}
        />
        <Field
          label={t("wallet.address_book.label")}
          hint={t("wallet.address_book.label_hint")}
          inputProps={{ ...getInputProps(fields.label, { type: "text" }), autoComplete: "off" }}
          errors={fields.label.errors}
        />
        <SubmitButton name="intent" value="add">
          {t("wallet.address_book.add")}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** Turns the whitelist mode to the other state: a security code sent from here, and the Google code when bound. */
function WhitelistForm({ whitelist, since, googleBound }: { whitelist: boolean; since: string | null; googleBound: boolean }) {
  const { t } = useTranslation();
  const reply = useReplies().whitelist;
  const check = useMemo(() => whitelistCheck(googleBound), [googleBound]);
  const [form, fields] = useExchangeForm(check, { id: "address-whitelist", lastResult: reply?.result });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="address-whitelist-title">
      <h2 id="address-whitelist-title" className={s.subtitle}>
        {t("wallet.address_book.whitelist_title")}
      </h2>
      <p data-testid="whitelist-state" style={{ margin: "0 0 8px" }}>
        {whitelist && since ? (
          <span className={s.on}>{t("wallet.address_book.whitelist_on", { time: since })}</span>
        ) : (
          <span className={s.off}>{t("wallet.address_book.whitelist_off")}</span>
        )}
      </p>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t(whitelist ? "wallet.address_book.whitelist_off_notice" : "wallet.address_book.whitelist_on_notice")}
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="enabled" value={whitelist ? "off" : "on"} />
        {googleBound ? (
          <Field
            label={t("auth.google_code")}
            inputProps={{ ...getInputProps(fields.googleCode, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
            errors={fields.googleCode.errors}
          />
        ) : null}
        <CodeField
          hint={t("account.security.code_hint")}
          inputProps={getInputProps(fields.code, { type: "text" })}
          errors={fields.code.errors}
          sentAt={reply?.sentAt}
          sentTo={reply?.sentTo}
          resendAfter={reply?.resendAfter ?? undefined}
        />
        <SubmitButton name="intent" value="whitelist">
          {t(whitelist ? "wallet.address_book.whitelist_turn_off" : "wallet.address_book.whitelist_turn_on")}
        </SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = PageErrorBoundary;
