import type { MemberSummary } from "#protocol/endpoints/members-admin";
import { useTranslation } from "~/lib/i18n";
import * as m from "./members.css";

/** Where the members pages are (here, not in the `.server` module: links need it in the browser too). */
export const MEMBERS_PAGE = "/ops/members";

/** A member's states as labels: frozen first, then the identity check and the authenticator. */
export function MemberStates({ member }: { member: Pick<MemberSummary, "frozenAt" | "kyc" | "googleBound"> }) {
  const { t } = useTranslation();
  return (
    <ul className={m.states}>
      {member.frozenAt ? <li className={`${m.state} ${m.frozen}`}>{t("ops.members.frozen")}</li> : null}
      <li className={m.state}>{t(`ops.members.kyc_${member.kyc}`)}</li>
      {member.googleBound ? <li className={m.state}>{t("ops.members.google_on")}</li> : null}
    </ul>
  );
}
