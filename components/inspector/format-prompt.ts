import type { ChatMessage } from "@/lib/domain/events";

/**
 * The exact messages sent to the model as one readable text: each message
 * under a `### role` heading, its content verbatim (not trimmed, not wrapped).
 */
export function formatMessages(messages: readonly ChatMessage[]): string {
  return messages.map((message) => `### ${message.role}\n${message.content}`).join("\n\n");
}
