import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { MAX_ID_IMAGE_BYTES, sniffImageType } from "#protocol/image-type";
import { KYC_FILE_FIELDS } from "~/lib/forms/kyc";
import { callAsMember, type MemberContext } from "./auth.server";
import { attempt } from "./register.server";

/** Reads a KYC form post; a file over 5 MB ends the read with `tooLarge`. */
export async function readKycForm(request: Request): Promise<{ formData: FormData | null; tooLarge: boolean }> {
  try {
    const formData = await unstable_parseMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize: MAX_ID_IMAGE_BYTES }));
    return { formData, tooLarge: false };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { formData: null, tooLarge: true };
    throw error;
  }
}

/** Field errors for images whose content is not JPG, PNG, BMP or GIF (a renamed text file, say). */
export async function imageTypeErrors(files: Record<(typeof KYC_FILE_FIELDS)[number], File>): Promise<Record<string, string[]> | null> {
  const errors: Record<string, string[]> = {};
  for (const field of KYC_FILE_FIELDS) {
    const head = new Uint8Array(await files[field].slice(0, 32).arrayBuffer());
    if (!sniffImageType(head)) errors[field] = ["validation.id_image_type"];
  }
  return Object.keys(errors).length ? errors : null;
}

/** Uploads the three images to the engine, then submits the verification. */
export async function submitKyc(request: Request, member: MemberContext, value: { front: File; back: File; hand: File; phone: string }) {
  return attempt(async () => {
    const ids: string[] = [];
    for (const field of KYC_FILE_FIELDS) {
      const body = new FormData();
      body.set("type", "0");
      body.set("file", value[field], value[field].name || `${field}.img`);
      ids.push((await callAsMember(request, member, endpoints.upload, { body })).id);
    }
    const [frontId, backId, handId] = ids as [string, string, string];
    return callAsMember(request, member, endpoints.kycSubmit, { body: { frontId, backId, handId, phone: value.phone } });
  });
}
