import type { SubmissionResult } from "@conform-to/react";
import * as z from "zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import { endpoints } from "#protocol/endpoints";
import { EDITABLE_CONFIG_TABLES, type ConfigSave, type EditableConfigTable } from "#protocol/endpoints/config-admin";
import { keyError } from "~/lib/forms/form-error";
import { EngineRefusal } from "~/services/engine/api.server";
import { OPS_HEADERS, opsRefusalError, withOperator } from "~/services/ops/ops-engine.server";
import { currencyFormSchema, footerLinkFormSchema, languageFormSchema, navItemFormSchema, parseWithZod } from "~/services/platform/form-schemas.server";
import { redirectWithToast } from "~/services/platform/toast.server";
import { CODE_COLUMN, configPageOf } from "./__config-tables";

/*
 * The configuration page's loader and action (`config.tsx`), apart from the route module so what
 * reads the forms stays on the server (decision 037).
 */

const FORM_SCHEMAS = { nav_item: navItemFormSchema, footer_link: footerLinkFormSchema, sys_language: languageFormSchema, currency: currencyFormSchema };

const NOTHING = z.object({});

const tableOf = (value: unknown): EditableConfigTable | null => EDITABLE_CONFIG_TABLES.find((table) => table === value) ?? null;
const ROW_ID = /^\d{1,10}$/;

/**
 * One table (`?table=`, the navigation by default) with its rows, and the row being edited
 * (`?edit=` its id, or `new`); an unknown table or row is a 404 page. Editing is for the roles
 * that may change the configuration.
 */
export function loadConfig(args: LoaderFunctionArgs) {
  return withOperator(args, "config.read", async ({ ops, request }) => {
    const search = new URL(request.url).searchParams;
    const table = search.has("table") ? tableOf(search.get("table")) : "nav_item";
    if (!table) throw data(null, { status: 404, headers: OPS_HEADERS });
    const tables = await ops.call(endpoints.opsConfig);
    const rows = tables[table] as Array<{ id: number } & Record<string, string | number | null>>;
    const mayChange = ops.may("config.change");
    const editParam = search.get("edit");
    let edit: { id: number | null; row: Record<string, string | number | null> | null } | null = null;
    if (editParam !== null && mayChange) {
      if (editParam === "new") edit = { id: null, row: null };
      else {
        const row = ROW_ID.test(editParam) ? rows.find((r) => r.id === Number(editParam)) : undefined;
        if (!row) throw data(null, { status: 404, headers: OPS_HEADERS });
        edit = { id: row.id, row };
      }
    }
    // The header's roots, for a navigation item's parent (two levels).
    const roots = tables.nav_item.filter((item) => item.pid === 0).map((item) => ({ id: item.id, code: item.nav_code }));
    return data({ table, rows, edit, roots, mayChange }, { headers: OPS_HEADERS });
  });
}

type Reply = SubmissionResult<string[]>;

/**
 * Saves a row (`intent=save`; new without `id`) or removes one (`intent=remove`): the form
 * checked with its table's schema, the rate read exactly in the operator's number format, then one
 * engine call. Done: back to the table with a toast. Refused (a field, a code another row has, a
 * parent that is no root, a row needed, another operator's change first): the form again with its
 * message, nothing changed.
 */
export function configAction(args: ActionFunctionArgs) {
  return withOperator(args, "config.read", async ({ ops, request }) => {
    const formData = await request.formData().catch(() => new FormData());
    const table = tableOf(formData.get("table"));
    const intent = formData.get("intent") === "remove" ? "remove" : "save";
    const idText = String(formData.get("id") ?? "");
    const id = ROW_ID.test(idText) ? Number(idText) : undefined;
    // A removal has no fields to check: its reply carries only its refusal.
    const submission = parseWithZod(formData, { schema: intent === "remove" || !table ? NOTHING : FORM_SCHEMAS[table] });
    const refuse = (status: number, fields: Record<string, string[]> = {}, formErrors: string[] = []) =>
      data({ intent, result: submission.reply({ fieldErrors: fields, formErrors }) as Reply }, { status, headers: OPS_HEADERS });
    if (!ops.may("config.change")) return refuse(403, {}, [keyError("ops.errors.role_denied")]);
    if (!table || (idText !== "" && id === undefined) || (intent === "remove" && id === undefined)) return refuse(400, {}, [keyError("ops.errors.invalid")]);
    const back = configPageOf(table);

    const attempt = async (call: () => Promise<unknown>) => {
      try {
        await call();
        return null;
      } catch (error) {
        if (!(error instanceof EngineRefusal)) throw error;
        const outcome = error.outcome;
        const code = outcome.kind === "error" ? outcome.code : 401;
        const reason = outcome.kind === "error" ? outcome.reason : undefined;
        if (reason === "CONFIG_TAKEN") return refuse(409, { [CODE_COLUMN[table]]: ["ops.config.errors.taken"] });
        if (reason === "CONFIG_PARENT") return refuse(400, { pid: ["ops.config.errors.root"] });
        if (reason === "CONFIG_IN_USE") return refuse(409, {}, [keyError(table === "nav_item" ? "ops.config.errors.has_items" : "ops.config.errors.last")]);
        if (reason === "DECIDED_ALREADY") return refuse(409, {}, [keyError("ops.config.errors.unchanged")]);
        if (code === 404) return refuse(404, {}, [keyError("ops.errors.item")]);
        return refuse(code >= 400 && code < 500 ? code : 502, {}, [opsRefusalError(error)]);
      }
    };

    if (intent === "remove") {
      const refused = await attempt(() => ops.call(endpoints.opsConfigRemove, { body: { table, id: id! } }));
      return refused ?? redirectWithToast(request, back, { type: "success", key: "ops.config.removed" }, { headers: OPS_HEADERS });
    }
    if (submission.status !== "success") return data({ intent, result: submission.reply() as Reply }, { status: 400, headers: OPS_HEADERS });
    const row = { ...submission.value } as Record<string, unknown>;
    if (table === "currency") {
      const rate = readDecimalInput(String(row.rate), { scale: 12, mark: decimalMarkOf(ops.lang), maxWholeDigits: 12 });
      // One message for every way a rate cannot be read: it says what a rate looks like in the operator's language.
      if (!rate.ok) return refuse(400, { rate: ["ops.config.errors.rate"] });
      row.rate = rate.value;
    }
    const body = { table, ...(id === undefined ? {} : { id }), row } as ConfigSave;
    const refused = await attempt(() => ops.call(endpoints.opsConfigSave, { body }));
    return refused ?? redirectWithToast(request, back, { type: "success", key: "ops.config.saved" }, { headers: OPS_HEADERS });
  });
}
