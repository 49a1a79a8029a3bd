/** The chip's first line: the permission glyph, "Needs permission:" and the action label. */
export function ChipHeader({ label }: { label: string }) {
  return (
    <p class="chip-head">
      <span class="chip-glyph" aria-hidden="true" />
      <span class="chip-title">Needs permission:</span>{" "}
      <strong class="chip-label" dir="auto">
        {label}
      </strong>
    </p>
  );
}
