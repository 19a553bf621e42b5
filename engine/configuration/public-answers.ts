import { createHash } from "node:crypto";
import type { ConfigVersion } from "./config-version";

/** A public answer ready to send: the envelope's JSON and its entity tag. */
export interface PublicAnswer {
  body: string;
  etag: string;
}

/** The answer with its entity tag. */
export function publicAnswer(body: string): PublicAnswer {
  return { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
}

/**
 * Answers kept by key, bounded by their total size: a caller who asks for ever new URLs (any
 * public URL may be asked) makes the oldest go, never the memory grow. A key asked again moves to
 * the newest end, so the answers in use stay.
 */
export class BoundedAnswers<T extends { body: string }> {
  private readonly entries = new Map<string, T>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: T): void {
    this.delete(key);
    if (entry.body.length > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.body.length;
  }
}

/** What the configuration answers may hold in all (the whole configuration is well under 1 MB). */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Public answers of the configuration tables, kept in memory as the JSON they are sent as,
 * keyed by request URL (issue 13; decision 035). Emptied on every configuration change; an answer
 * computed while a change arrived is not kept (it may hold the old rows).
 */
export class PublicAnswers {
  private readonly answers = new BoundedAnswers<PublicAnswer>(MAX_BYTES);

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
    const answer = publicAnswer(body);
    if (generation === this.version.current) this.answers.set(key, answer);
    return answer;
  }
}
