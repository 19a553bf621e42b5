import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type * as z from "zod";
import { loginSchema } from "~/lib/forms/auth";
import { engineFor } from "../engine/client.server";
import { loginWithPassword, type LoginOutcome } from "./login.server";

/** The strategy a login form is checked with (its name in the authenticator). */
export const PASSWORD_LOGIN = "engine-password";

/** What a login attempt came to, with the form it was made with (the page re-renders from it). */
export type LoginAttempt = { form: FormData; submission: LoginSubmission } & ({ kind: "invalid" } | LoginOutcome);

type LoginSubmission = Submission<z.input<typeof loginSchema>, string[], z.output<typeof loginSchema>>;

/**
 * Member login through remix-auth (the owner's stack), with one form strategy: its verify checks
 * the form with the login schema both tiers share, then asks the engine's token endpoint (a
 * password grant, with this browser's device id) and keeps the tokens in our encrypted session
 * cookie (login.server.ts). remix-auth v4 stores no session of its own and throws nothing we must
 * catch: every outcome (a bad form, "give the Google code", a refusal, a login) comes back as a
 * value for the page to show. Registration logs in with the same engine call afterwards.
 */
export const authenticator = new Authenticator<LoginAttempt>().use(
  new FormStrategy(async ({ form, request }) => {
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== "success") return { form, submission, kind: "invalid" };
    // A visitor's client: a login carries no member token, so it has no cookies of its own to add.
    const engine = await engineFor({ request });
    return { form, submission, ...(await loginWithPassword(engine, submission.value)) };
  }),
  PASSWORD_LOGIN,
);
