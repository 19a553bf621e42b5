/**
 * The demo member's notice for a route that renders it on the server only (decision 037, §7): in
 * the browser this module is the compiler's empty stand-in, and the route loads the notice's code
 * when the notice is on the page (`withdrawal.tsx`).
 */
export { DemoLockedNotice } from "./demo-locked";
