import { endpoints } from "#protocol/endpoints";
import { KYC_FILE_FIELDS } from "~/lib/forms/kyc";
import type { EngineCall } from "../call.server";

/** Identity verification (KYC): its status, and a submission of three images and a phone. */
export function kycArea(call: EngineCall) {
  return {
    status: () => call(endpoints.kycStatus, { params: { key: "yhrzxx" } }),
    /**
     * Sends the three images and the phone in one call: the engine checks all of it before it
     * stores any (uploading each image first would keep them when the submission is refused).
     */
    submit(value: Record<(typeof KYC_FILE_FIELDS)[number], File> & { phone: string }) {
      const body = new FormData();
      for (const field of KYC_FILE_FIELDS) body.set(field, value[field], value[field].name || `${field}.img`);
      body.set("phone", value.phone);
      return call(endpoints.kycSubmitImages, { body });
    },
  };
}
