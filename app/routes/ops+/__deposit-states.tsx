import type { DepositView } from "#protocol/endpoints/deposits";
import { useTranslation } from "~/lib/i18n";

/** Where the deposits page is (here, not in the `.server` module: the page's links need it in the browser too). */
export const DEPOSITS_PAGE = "/ops/deposits";

/** A deposit's state as the member's history words it (confirmations counted while it confirms). */
export function DepositState({ deposit }: { deposit: Pick<DepositView, "state" | "confirmations" | "confirmationsRequired"> }) {
  const { t } = useTranslation();
  return (
    <>
      {t(
        `wallet.deposit.states.${deposit.state}`,
        deposit.state === "confirming" ? { n: deposit.confirmations, of: deposit.confirmationsRequired ?? "?" } : {},
      )}
    </>
  );
}
