import { createHash } from "node:crypto";
import type { ConfigVersion } from "./config-version";

/** A public answer ready to send: the envelope's JSON and its entity tag. */
export interface PublicAnswer {
  body: string;
  etag: string;
}

/** Distinct requests kept (each a URL with its query); beyond it the oldest go. */
const MAX_ANSWERS = 2_000;

/**
 * Public answers of the configuration tables, kept in memory as the JSON they are sent as,
 * keyed by request URL (issue 13; decision 035). Emptied on every configuration change; an answer
 * computed while a change arrived is not kept (it may hold the old rows).
 */
export class PublicAnswers {
  private readonly answers = new Map<string, PublicAnswer>();

  constructor(private readonly version: ConfigVersion) {
    version.onChange(() => this.answers.clear());
  }

  get(key: string): PublicAnswer | undefined {
    return this.answers.get(key);
  }

  /** The change generation to pass to `keep` once the answer is computed. */
  begin(): number {
    return this.version.current;
  }

  /** Makes the answer from its JSON, and keeps it when no change arrived since `begin`. */
  keep(key: string, body: string, generation: number): PublicAnswer {
    const answer = { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
    if (generation === this.version.current) {
      if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(key, answer);
    }
    return answer;
  }
}
