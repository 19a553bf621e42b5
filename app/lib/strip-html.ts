const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/**
 * A server message without its HTML (spec §8: "the server message (HTML stripped)"): tags,
 * scripts and styles removed, common entities decoded, whitespace collapsed. Empty result: null.
 */
export function stripHtml(message: unknown): string | null {
  if (typeof message !== "string") return null;
  const text = message
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/[<>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text ? text.slice(0, 300) : null;
}
