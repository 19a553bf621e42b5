import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { endpoints } from "#protocol/endpoints";
import { FormErrors } from "~/components/forms";
import { formatDateTime } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { decide } from "./__decision.server";
import { DecisionForms, replyErrors, type DecisionReply } from "./__decision";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.kyc.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/** A member's uid, as the review call takes it. */
const UID = /^\d{8}$/;
const PAGE = "/ops/kyc";

/** The identities waiting for review, oldest first; the decision forms for a role that may decide. */
export function loader(args: LoaderFunctionArgs) {
  return withOperator(args, "kyc.read", async ({ ops }) =>
    data({ queue: await ops.call(endpoints.opsKycQueue), mayReview: ops.may("kyc.review") }, { headers: OPS_HEADERS }),
  );
}

/**
 * Approves a member's identity, or rejects it with the reason the member reads. The engine checks
 * the role (a reader's post is refused there, 403) and that the submission is still in review (of
 * two operators at once, the second is told another decided first, 409).
 */
export function action(args: ActionFunctionArgs) {
  return withOperator(args, "kyc.read", ({ ops, request }) =>
    decide(request, {
      idPattern: UID,
      back: PAGE,
      send: ({ id, decision, reason }) => ops.call(endpoints.adminKycReview, { body: { uid: id, decision, ...(reason ? { reason } : {}) } }),
      done: ({ id, decision }) => ({ key: decision === "approve" ? "ops.kyc.approved" : "ops.kyc.rejected", values: { uid: id } }),
    }),
  );
}

/** After a refused decision too: the queue shows where each submission stands now. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

export default function OpsKycPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { queue, mayReview } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as DecisionReply | undefined;
  // A refusal for a submission no longer in the queue (decided meanwhile, a forged id), or for a
  // role shown no forms, shows above it.
  const orphan = reply && (!mayReview || !queue.some((item) => item.uid === reply.id)) ? replyErrors(reply) : [];
  return (
    <section className={s.card} aria-labelledby="ops-kyc-title">
      <h1 id="ops-kyc-title" className={s.title}>
        {t("ops.kyc.title")}
      </h1>
      <FormErrors errors={orphan} />
      {queue.length === 0 ? (
        <p className={q.empty}>{t("ops.kyc.empty")}</p>
      ) : (
        <>
          <p className={q.intro}>{t("ops.kyc.waiting", { count: queue.length })}</p>
          <ol className={q.list}>
            {queue.map((item) => {
              const titleId = `kyc-${item.uid}-title`;
              return (
                <li key={item.uid}>
                  <article className={q.item} aria-labelledby={titleId} data-uid={item.uid}>
                    <div>
                      <h2 id={titleId} className={q.itemTitle}>
                        {t("ops.kyc.member", { uid: item.uid })}
                      </h2>
                      <dl className={q.facts}>
                        <dt>{t("ops.kyc.account")}</dt>
                        <dd>{item.account || "—"}</dd>
                        <dt>{t("ops.kyc.phone")}</dt>
                        <dd>{item.phone || "—"}</dd>
                        <dt>{t("ops.kyc.submitted")}</dt>
                        <dd>
                          <time dateTime={item.submittedAt}>{formatDateTime(item.submittedAt, lang)}</time>
                        </dd>
                      </dl>
                    </div>
                    <ul className={q.thumbs} aria-label={t("ops.kyc.images", { uid: item.uid })}>
                      {item.images.map((image) => (
                        <li key={image.id}>
                          <a href={`${PAGE}/image/${image.id}`} target="_blank" rel="noopener noreferrer" className={q.thumbLink}>
                            <img src={`${PAGE}/image/${image.id}`} alt="" width={144} height={100} loading="lazy" className={q.thumb} />
                            <span>{t(`account.kyc.${image.kind}`)}</span>
                            <span className="visually-hidden">{t("ops.kyc.new_tab")}</span>
                          </a>
                        </li>
                      ))}
                    </ul>
                    {mayReview ? (
                      <DecisionForms
                        id={item.uid}
                        scope="kyc"
                        reply={reply}
                        approveLabel={t("ops.kyc.approve_one", { uid: item.uid })}
                        rejectLabel={t("ops.kyc.reject_one", { uid: item.uid })}
                      />
                    ) : (
                      <p className={q.hint}>{t("ops.kyc.read_only")}</p>
                    )}
                  </article>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
