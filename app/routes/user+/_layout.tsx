import { Outlet } from "@remix-run/react";
import * as s from "./user.css";

/** Layout of /user/* (login, register): no footer (spec §2), a centred card. */
export default function UserLayout() {
  return (
    <div className={s.layout}>
      <div className={s.card}>
        <Outlet />
      </div>
    </div>
  );
}
