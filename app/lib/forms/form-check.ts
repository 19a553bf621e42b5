import type { ZodType } from "zod";

/**
 * The constraint attributes an input carries (`getZodConstraint`'s shape): `required` is what
 * screen readers announce; the form is `noValidate`, so none of them refuses a post by itself.
 */
export interface FieldConstraint {
  required?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  multiple?: boolean;
}

/** How the "send code" button of a form (`intent=send-code`) is checked in the browser. */
export type SendCodeCheck = "unchecked" | (() => Promise<ZodType>);

/**
 * One form's checks, as a page holds them before zod is loaded (decision 037): the inputs'
 * constraints, written out here (a unit test keeps them equal to `getZodConstraint` of the
 * schema), and the zod schema itself, loaded when the member first uses the form. The server
 * parses every post with the same schema, with or without JavaScript.
 */
export interface FormCheck<Name extends string = string> {
  constraint: Record<Name, FieldConstraint>;
  /** The form's zod schema (its module is imported on the form's first use). */
  schema(): Promise<ZodType>;
  /** The `send-code` intent's check: only the fields the code goes to, or none (the server checks the address). */
  sendCode?: SendCodeCheck;
}

/** Keeps the field names of a check's constraint as its type. */
export function formCheck<Name extends string>(check: FormCheck<Name>): FormCheck<Name> {
  return check;
}

export const REQUIRED: FieldConstraint = { required: true };
export const OPTIONAL: FieldConstraint = { required: false };
