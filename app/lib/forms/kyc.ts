import * as z from "zod";
import { MAX_ID_IMAGE_BYTES } from "#protocol/image-type";

/** Spec §5: ID images are JPG, JPEG, PNG, BMP or GIF, at most 5 MB (the type is checked by content on the server). */
const idImage = z
  .instanceof(File, { message: "validation.id_image_required" })
  .refine((file) => file.size > 0, "validation.id_image_required")
  .refine((file) => file.size <= MAX_ID_IMAGE_BYTES, "validation.id_image_size")
  .refine((file) => file.type === "" || /^image\/(jpeg|png|bmp|gif)$/.test(file.type) || /\.(jpe?g|png|bmp|gif)$/i.test(file.name), "validation.id_image_type");

export const kycSchema = z.object({
  front: idImage,
  back: idImage,
  hand: idImage,
  phone: z
    .string({ message: "validation.phone_required" })
    .trim()
    .regex(/^\+?\d{4,18}$/, "validation.phone_required"),
});

export const KYC_FILE_FIELDS = ["front", "back", "hand"] as const;
