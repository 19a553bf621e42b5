import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { toInputText } from "#protocol/decimal-input";
import { EDITABLE_CONFIG_TABLES, type EditableConfigTable } from "#protocol/endpoints/config-admin";
import { LANGUAGE_CODES } from "#protocol/languages";
import { DataTable } from "~/components/data-table";
import { ErrorList, Field, FormErrors, SelectField } from "~/components/forms";
import * as f from "~/components/forms.css";
import { opsCurrencyCheck, opsFooterLinkCheck, opsLanguageCheck, opsNavItemCheck } from "~/lib/forms/checks/ops";
import type { FormCheck } from "~/lib/forms/form-check";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { CONFIG_COLUMNS, CONFIG_PAGE, configPageOf, type ColumnSpec } from "./__config-tables";
import { configAction, loadConfig } from "./__config.server";
import * as m from "./members.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.config.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** The site's configuration tables (issue 29, decision 044): navigation, footer, languages, display currencies. */
export function loader(args: LoaderFunctionArgs) {
  return loadConfig(args);
}

/** A row saved or removed (the engine checks the role again and writes the audit row). */
export function action(args: ActionFunctionArgs) {
  return configAction(args);
}

const CHECKS: Record<EditableConfigTable, FormCheck> = {
  nav_item: opsNavItemCheck,
  footer_link: opsFooterLinkCheck,
  sys_language: opsLanguageCheck,
  currency: opsCurrencyCheck,
};

type Row = { id: number } & Record<string, string | number | null>;
type Reply = { intent: "save" | "remove"; result: SubmissionResult<string[]> };

/** The row's form: every column of its table, saved at once; an existing row can be removed under it. */
function RowForm({
  table,
  id,
  row,
  roots,
}: {
  table: EditableConfigTable;
  id: number | null;
  row: Row | null;
  roots: ReadonlyArray<{ id: number; code: string }>;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { marks } = useNumberFormat();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const defaults = Object.fromEntries(
    Object.entries(row ?? { pid: 0, nav_show: 1, link_show: 1, nav_sort: 0, link_sort: 0, sort: 0 }).map(([key, value]) => [
      key,
      key === "rate" && typeof value === "string"
        ? toInputText(value, marks.decimal)
        : key.endsWith("_show")
          ? value === 1
            ? "on"
            : undefined
          : value === null
            ? ""
            : String(value),
    ]),
  );
  const [form, fields] = useExchangeForm(CHECKS[table], {
    id: `config-${table}-${id ?? "new"}`,
    lastResult: reply?.intent === "save" ? reply.result : undefined,
    defaultValue: defaults,
  });
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const removing = navigation.state === "submitting" && navigation.formData?.get("intent") === "remove";
  const label = (name: string) => t(`ops.config.columns.${name}`);
  const field = (spec: ColumnSpec) => {
    const meta = fields[spec.name]!;
    const hint = spec.hint ? t(`ops.config.hints.${spec.name}`) : undefined;
    if (spec.kind === "show") {
      return (
        <div className={f.field} key={spec.name}>
          <label className={s.inline}>
            <input {...getInputProps(meta, { type: "checkbox", value: "on" })} />
            {label(spec.name)}
          </label>
          <ErrorList id={meta.errorId} errors={meta.errors} />
        </div>
      );
    }
    if (spec.kind === "parent" || spec.kind === "language") {
      return (
        <SelectField key={spec.name} label={label(spec.name)} selectProps={getSelectProps(meta)} errors={meta.errors}>
          {spec.kind === "parent" ? (
            <>
              <option value="0">{t("ops.config.top_level")}</option>
              {roots
                .filter((root) => root.id !== id)
                .map((root) => (
                  <option key={root.id} value={root.id}>
                    {`${t(`nav.${root.code}`)} (${root.code})`}
                  </option>
                ))}
            </>
          ) : (
            LANGUAGE_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))
          )}
        </SelectField>
      );
    }
    return (
      <Field
        key={spec.name}
        label={label(spec.name)}
        hint={hint}
        errors={meta.errors}
        inputProps={{
          ...getInputProps(meta, { type: "text" }),
          maxLength: spec.maxLength,
          autoComplete: "off",
          inputMode: spec.kind === "sort" ? "numeric" : spec.kind === "rate" ? "decimal" : undefined,
        }}
      />
    );
  };
  const removeReply = reply?.intent === "remove" ? reply.result.error?.[""] : undefined;
  return (
    <section className={s.card} aria-labelledby="config-edit-title">
      <h2 id="config-edit-title" className={m.changeTitle}>
        {id === null ? t("ops.config.new_title") : t("ops.config.edit_title", { id })}
      </h2>
      <Form method="post" {...getFormProps(form)} className={`${m.change} ${m.narrowChange}`} aria-labelledby="config-edit-title">
        <input type="hidden" name="table" value={table} />
        <input type="hidden" name="intent" value="save" />
        {id !== null ? <input type="hidden" name="id" value={id} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        {CONFIG_COLUMNS[table].map(field)}
        <div className={q.buttons}>
          <button type="submit" className={q.approve} disabled={sending} aria-busy={sending || undefined}>
            {t("ops.config.save")}
          </button>
          <Link to={configPageOf(table)} className={s.linkButton}>
            {t("ops.config.cancel")}
          </Link>
        </div>
      </Form>
      {id !== null ? (
        <Form method="post" className={q.buttons} style={{ marginTop: 16 }} aria-label={t("ops.config.remove_label", { id })}>
          <input type="hidden" name="table" value={table} />
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="id" value={id} />
          <FormErrors id="config-remove-error" errors={removeReply} />
          <button type="submit" className={q.reject} disabled={removing} aria-busy={removing || undefined}>
            {t("ops.config.remove")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export default function OpsConfigPage() {
  const { t } = useTranslation();
  const numbers = useNumberFormat();
  const { table, rows, edit, roots, mayChange } = useLoaderData<typeof loader>();
  const codeOf = (pid: number) => roots.find((root) => root.id === pid)?.code;
  /** A cell as operators read it: flags in words, a parent by its code, a rate grouped in their language. */
  const cell = (row: Row, spec: ColumnSpec) => {
    const value = row[spec.name];
    if (spec.kind === "show") return t(value === 1 ? "ops.config.shown" : "ops.config.hidden");
    if (spec.kind === "parent") return value === 0 ? t("ops.config.top_level") : (codeOf(Number(value)) ?? String(value));
    if (spec.kind === "rate" && typeof value === "string") return numbers.mark(value);
    if (spec.name === "nav_code" || spec.name === "link_code" || spec.name === "nav_path" || spec.name === "link_path") {
      return <span className={m.mono}>{String(value)}</span>;
    }
    return value === null ? "—" : String(value);
  };
  /** What members read for the row (its text in the operator's language). */
  const shownAs = (row: Row) =>
    table === "nav_item"
      ? t(`nav.${row.nav_code}`)
      : table === "footer_link"
        ? `${t(`footer.groups.${row.group_code}`)} › ${t(`footer.links.${row.link_code}`)}`
        : null;
  return (
    <>
      <section className={s.card} aria-labelledby="ops-config-title">
        <h1 id="ops-config-title" className={s.title}>
          {t("ops.config.title")}
        </h1>
        <p className={s.muted}>{t("ops.config.intro")}</p>
        <nav aria-label={t("ops.config.tables")} style={{ marginTop: 16 }}>
          <ul className={s.inline} style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {EDITABLE_CONFIG_TABLES.map((one) => (
              <li key={one}>
                <Link to={configPageOf(one)} className={s.linkButton} aria-current={one === table ? "page" : undefined}>
                  {t(`ops.config.table_${one}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </section>
      {edit ? <RowForm key={`${table}-${edit.id ?? "new"}`} table={table} id={edit.id} row={edit.row as Row | null} roots={roots} /> : null}
      <section className={`${s.card} ${m.section}`} aria-labelledby="ops-config-rows">
        <h2 id="ops-config-rows" className={m.sectionTitle}>
          {t(`ops.config.table_${table}`)}
        </h2>
        <p className={q.hint}>{t(`ops.config.about_${table}`)}</p>
        {mayChange && !edit ? (
          <p>
            <Link to={configPageOf(table, "new")} className={s.linkButton}>
              {t("ops.config.add")}
            </Link>
          </p>
        ) : null}
        <DataTable
          rows={rows as Row[]}
          rowKey={(row) => String(row.id)}
          name={{ labelledBy: "ops-config-rows" }}
          empty={t("ops.config.none")}
          reflow="cards"
          columns={[
            { key: "id", header: t("ops.config.columns.id"), kind: "number" as const, cell: (row: Row) => row.id },
            ...(table === "nav_item" || table === "footer_link"
              ? [{ key: "shown_as", header: t("ops.config.shown_as"), cell: (row: Row) => shownAs(row) }]
              : []),
            ...CONFIG_COLUMNS[table].map((spec) => ({
              key: spec.name,
              header: t(`ops.config.columns.${spec.name}`),
              kind: spec.kind === "sort" || spec.kind === "rate" ? ("number" as const) : undefined,
              cell: (row: Row) => cell(row, spec),
            })),
            mayChange
              ? {
                  key: "edit",
                  header: t("ops.config.actions"),
                  cell: (row: Row) => (
                    <Link to={configPageOf(table, row.id)} className={m.link} aria-label={t("ops.config.edit_label", { id: row.id })}>
                      {t("ops.config.edit")}
                    </Link>
                  ),
                }
              : null,
          ]}
        />
      </section>
    </>
  );
}

/** An unknown table or row: said in the console's frame, with the way back. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className={s.card} aria-labelledby="ops-config-error">
      <h1 id="ops-config-error" className={s.title}>
        {t(missing ? "ops.config.missing" : "errors.unknown")}
      </h1>
      <Link to={CONFIG_PAGE} className={s.linkButton}>
        {t("ops.config.back")}
      </Link>
    </section>
  );
}
