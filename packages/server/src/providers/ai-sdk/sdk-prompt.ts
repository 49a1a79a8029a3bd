import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { LlmMessage } from "@solserver/core";

/**
 * The turn's messages as an AI SDK prompt. Anthropic and Gemini take system text only before the
 * conversation, so a system message that comes later (a patch directive, a retrieved note) is sent as
 * user text marked as an instruction. Structured OpenAI messages (tool calls) go as their text.
 */
export function toSdkPrompt(messages: readonly LlmMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  let leading = true;
  for (const message of messages) {
    if (message.role === "system" && leading) {
      prompt.push({ role: "system", content: message.content });
      continue;
    }
    leading = false;
    if (message.role === "assistant") {
      prompt.push({ role: "assistant", content: [{ type: "text", text: message.content }] });
      continue;
    }
    const text = message.role === "system" ? `[Instruction] ${message.content}` : message.content;
    prompt.push({ role: "user", content: [{ type: "text", text }] });
  }
  return prompt;
}
