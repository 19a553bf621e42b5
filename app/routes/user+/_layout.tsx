import { Outlet } from "@remix-run/react";
// Bundling only: the shell's modules in the chunk of React and Remix (see runtime-bundle.ts).
import "~/lib/use-shell";
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
