import { endpoints } from "#protocol/endpoints";
import { KYC_FILE_FIELDS } from "~/lib/forms/kyc";
import type { EngineCall } from "../call.server";

/** Identity verification (KYC): its status, and a submission of three images and a phone. */
export function kycArea(call: EngineCall) {
  return {
    status: () => call(endpoints.kycStatus, { params: { key: "yhrzxx" } }),
    /** Uploads the three images to the engine, then submits the verification. */
    async submit(value: Record<(typeof KYC_FILE_FIELDS)[number], File> & { phone: string }) {
      const ids: string[] = [];
      for (const field of KYC_FILE_FIELDS) {
        const body = new FormData();
        body.set("type", "0");
        body.set("file", value[field], value[field].name || `${field}.img`);
        ids.push((await call(endpoints.upload, { body })).id);
      }
      const [frontId, backId, handId] = ids as [string, string, string];
      return call(endpoints.kycSubmit, { body: { frontId, backId, handId, phone: value.phone } });
    },
  };
}
