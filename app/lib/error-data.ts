/**
 * The data of the error page shown when the engine cannot be reached (spec §8: network errors):
 * made on the server (services/errors.server.ts), read by the error page in the browser.
 */
export interface UnreachableErrorData {
  reason: "unreachable";
  langTag: string;
  title: string;
  text: string;
  retry: string;
}
