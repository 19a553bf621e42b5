import { Outlet } from "@remix-run/react";

/** /account/center/security and its setting pages share this parent. */
export default function SecurityLayout() {
  return <Outlet />;
}
