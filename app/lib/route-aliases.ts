/**
 * The URLs the spec names that are only a way to another page (spec §2, decision 010), in one
 * table: each alias route file registers its path here (`aliasLoader`), so where every alias leads
 * is read and changed in one place. Remix still needs a file per path to route it (a layout's bare
 * path would otherwise render the layout with an empty outlet), and the test beside this module
 * checks that the files and the table agree.
 */
export const ROUTE_ALIASES = {
  /** "/" goes to /home, which goes to /home/index. */
  "/": { to: "/home" },
  "/home": { to: "/home/index" },
  /** Login is the default page of /user. */
  "/user": { to: "/user/login" },
  "/account": { to: "/account/center" },
  "/account/center": { to: "/account/center/info" },
  /** The spec lists the login password under the security settings too; one page serves both. */
  "/account/center/security/setting/login-pwd": { to: "/account/center/login-pwd" },
  /** Orders live at /account/entrust (decision 010); the spec also lists them under the account center. */
  "/account/entrust": { to: "/account/entrust/spot" },
  "/account/center/entrust": { to: "/account/entrust/spot" },
  /** The wallet opens on the assets overview (spec §2). */
  "/account/wallet": { to: "/account/wallet/assets" },
  /** The spec lists deposits and withdrawals under the account centre too; the wallet's pages serve both. */
  "/account/center/deposit": { to: "/account/wallet/deposit", keepQuery: true },
  "/account/center/history-deposit": { to: "/account/wallet/history-deposit", keepQuery: true },
  "/account/center/withdrawal": { to: "/account/wallet/withdrawal", keepQuery: true },
  "/account/center/history-withdrawal": { to: "/account/wallet/history-withdrawal", keepQuery: true },
  /** The same list with its filter: the query is kept. */
  "/account/center/entrust/spot": { to: "/account/entrust/spot", keepQuery: true },
  "/account/center/entrust/future/u": { to: "/account/entrust/future/u", keepQuery: true },
  "/account/center/entrust/future/coin": { to: "/account/entrust/future/coin", keepQuery: true },
  "/account/center/entrust/margin-all": { to: "/account/entrust/margin-all", keepQuery: true },
  "/account/center/entrust/margin-fixed": { to: "/account/entrust/margin-fixed", keepQuery: true },
} as const satisfies Record<string, { to: string; keepQuery?: boolean }>;

export type RouteAlias = keyof typeof ROUTE_ALIASES;

/** Where an alias leads for this request URL (its query too where the table says so). */
export function aliasTarget(from: RouteAlias, url: string): string {
  const alias: { to: string; keepQuery?: boolean } = ROUTE_ALIASES[from];
  return alias.keepQuery ? `${alias.to}${new URL(url).search}` : alias.to;
}
