import type { ActionNeeded } from "@solserver/core";

/** State B: what will happen, tool/target, data used, why asking, in that reading order. */
export function ChipDetails({ action, id }: { action: ActionNeeded; id: string }) {
  return (
    <div class="chip-details" id={id}>
      <p class="chip-key">What will happen</p>
      <ul class="chip-bullets">
        {action.action_summary_bullets.map((bullet) => (
          <li key={bullet} dir="auto">
            {bullet}
          </li>
        ))}
      </ul>
      <dl class="chip-facts">
        {action.action_target && (
          <div>
            <dt class="chip-key">Tool / Target</dt>
            <dd dir="auto">{action.action_target}</dd>
          </div>
        )}
        {action.action_data_used && (
          <div>
            <dt class="chip-key">Data used</dt>
            <dd dir="auto">{action.action_data_used}</dd>
          </div>
        )}
        {action.action_why && (
          <div>
            <dt class="chip-key">Why asking</dt>
            <dd dir="auto">{action.action_why}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}
