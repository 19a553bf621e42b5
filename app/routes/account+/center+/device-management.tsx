import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { DataTable } from "~/components/data-table";
import { formatDateTime } from "~/lib/dates";
import { pageTitle, useShell } from "~/lib/use-shell";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as s from "~/styles/account-center.css";
import { useMemberInfo } from "~/lib/use-member-info";
import { withMember } from "~/services/engine/route.server";
import { parseWithZod, renameDeviceSchema } from "~/services/platform/form-schemas.server";
import { DEVICE_ID_PATTERN } from "#protocol/device-id";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.devices.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => ({ devices: await engine.member.devices() }));
}

/** Rename a device, or delete it: deleting revokes its session on the engine. */
export function action(args: ActionFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const formData = await request.formData();
    const back = "/account/center/device-management";
    if (formData.get("intent") === "delete") {
      const id = String(formData.get("id") ?? "");
      if (!DEVICE_ID_PATTERN.test(id)) return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
      const done = await engine.attempt(() => engine.member.deleteDevice(id));
      return redirectWithToast(
        request,
        back,
        done.ok ? { type: "success", key: "account.devices.deleted" } : { type: "error", message: done.message ?? undefined },
      );
    }
    const submission = parseWithZod(formData, { schema: renameDeviceSchema });
    // The id is a hidden field: refused, it was tampered with or the page is stale (its schema's key says so).
    if (submission.status !== "success") {
      const key = submission.error?.id?.[0] ?? "validation.device_name";
      return redirectWithToast(request, back, { type: "error", key });
    }
    const done = await engine.attempt(() => engine.member.renameDevice(submission.value.id, submission.value.name));
    return redirectWithToast(
      request,
      back,
      done.ok ? { type: "success", key: "account.devices.renamed" } : { type: "error", message: done.message ?? undefined },
    );
  });
}

export default function DeviceManagementPage() {
  const { t } = useTranslation();
  const { devices } = useLoaderData<typeof loader>();
  const info = useMemberInfo();
  const { lang } = useShell();
  const when = (iso: string) => formatDateTime(iso, lang);
  return (
    <section className={s.card} aria-labelledby="devices-title">
      <h1 id="devices-title" className={s.title}>
        {t("account.devices.title")}
      </h1>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t(info.demo ? "account.demo.devices_text" : "account.devices.notice")}
      </p>
      {/* Rows as cards in a narrow frame: the name, its Rename and Delete stay in sight on a phone. */}
      <DataTable
        rows={devices}
        rowKey={(device) => device.id}
        name={{ labelledBy: "devices-title" }}
        empty={null}
        reflow="cards"
        columns={[
          {
            key: "name",
            header: t("account.devices.name"),
            cell: (device) => (
              <>
                {info.demo ? (
                  <span>{device.name}</span>
                ) : (
                  <Form method="post" className={s.inlineForm}>
                    <input type="hidden" name="id" value={device.id} />
                    <label htmlFor={`device-${device.id}`} className="visually-hidden">
                      {t("account.devices.name")}
                    </label>
                    <input id={`device-${device.id}`} name="name" defaultValue={device.name} maxLength={60} required className={s.smallInput} />
                    <button type="submit" name="intent" value="rename" className={s.action}>
                      {t("account.devices.rename")}
                    </button>
                  </Form>
                )}
                {device.current ? <p className={s.on}>{t("account.devices.this_device")}</p> : null}
              </>
            ),
          },
          { key: "last-seen", header: t("account.devices.last_seen"), kind: "time", cell: (device) => when(device.lastSeenAt) },
          { key: "ip", header: t("account.devices.ip"), cell: (device) => device.ip || "—" },
          {
            key: "actions",
            header: <span className="visually-hidden">{t("account.devices.actions")}</span>,
            cell: (device) =>
              device.current ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={device.id} />
                  <button type="submit" name="intent" value="delete" className={s.action} aria-label={t("account.devices.delete_named", { name: device.name })}>
                    {t("account.devices.delete")}
                  </button>
                </Form>
              ),
          },
        ]}
      />
    </section>
  );
}
