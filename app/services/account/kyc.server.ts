import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { MAX_ID_IMAGE_BYTES, sniffImageType } from "#protocol/image-type";
import { KYC_FILE_FIELDS } from "~/lib/forms/kyc";

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
