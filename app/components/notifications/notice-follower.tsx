import type { TopicName } from "#protocol/realtime";
import { useTopic } from "~/lib/realtime";

export interface NoticeFollowerProps {
  /** The member's topic (`refresh_{memberId}`) and its ticket, from the stack's read. */
  topic: string;
  ticket: string;
  /** A push said there are new notifications. */
  onNotices(): void;
  onResync(): void;
  onSubscribed(): void;
}

/**
 * Follows the member's topic on the page's socket (loaded only where the stack is followed live,
 * with socket.io's code; decision 037). Renders nothing.
 */
export default function NoticeFollower({ topic, ticket, onNotices, onResync, onSubscribed }: NoticeFollowerProps) {
  // The engine names the topic with the ticket; its pushes are `refresh`'s. Once the engine
  // accepts the subscription, what came between the first read and then is read too.
  useTopic(topic as TopicName<"refresh">, (push) => push.notices && onNotices(), { ticket, onResync, onSubscribed });
  // An empty fragment rather than null: the JSX runtime is then shared with the pages' chunk of
  // React instead of splitting it in two (one more file on every page).
  return <></>;
}

/** Bundling only: shares the chunk of React, Remix and the shell with the pages (`runtime-bundle.ts`). */
export { remixRuntime } from "~/lib/runtime-bundle";
