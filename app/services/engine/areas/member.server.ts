import { endpoints } from "#protocol/endpoints";
import type { EngineCall } from "../call.server";

/** The member's own account: profile, login log, devices, the realtime ticket, logging out. */
export function memberArea(call: EngineCall) {
  return {
    /** The full profile (spec §3 "User info"). */
    info: () => call(endpoints.memberInfo),
    loginLog: (pageSize: number) => call(endpoints.loginLog, { query: { pageSize: String(pageSize) } }),
    devices: () => call(endpoints.devices),
    deleteDevice: (deviceId: string) => call(endpoints.deleteDevice, { params: { deviceId } }),
    renameDevice: (id: string, name: string) => call(endpoints.updateDevice, { body: { id, name } }),
    /** The "support us" button (once per member). */
    support: () => call(endpoints.support),
    /** A short-lived ticket for the live order updates over socket.io. */
    realtimeTicket: () => call(endpoints.realtimeTicket),
    /** Ends this device's engine session. */
    logOut: () => call(endpoints.logout),
  };
}
