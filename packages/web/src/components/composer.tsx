import { useState } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";

/** The largest message the server accepts (PacketInput.message). */
const MAX_MESSAGE = 20_000;

/** Textarea and Send: Enter sends, Shift+Enter starts a new line. */
export function Composer({ threadId }: { threadId: string }) {
  const { session, activity } = useAppEnv();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const send = () => {
    const message = text.trim();
    if (message.length === 0) return;
    try {
      session.send(threadId, message);
      setText("");
      setProblem(null);
      activity.endTyping();
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "Could not queue the message.");
    }
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label class="visually-hidden" for="composer-input">
        Message
      </label>
      <textarea
        id="composer-input"
        rows={2}
        dir="auto"
        maxLength={MAX_MESSAGE}
        placeholder="Write a message…"
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          activity.noteKeystroke();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" class="btn btn-primary" disabled={text.trim().length === 0}>
        Send
      </button>
      {problem && (
        <p class="composer-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
