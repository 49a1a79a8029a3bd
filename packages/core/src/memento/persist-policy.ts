/** A turn persists the memento at the latest once this many turns have passed without persisting. */
export const MEMENTO_PERSIST_EVERY_TURNS = 5;

export interface PersistMementoArgs {
  /** Whether the thread has any persisted memento yet. */
  readonly hasPersisted: boolean;
  readonly phaseChanged: boolean;
  /**
   * The affect intensity bucket changed. The peak guardrail reads phase and bucket from the stored
   * memento, so a turn that moves either must be kept (a high bucket at a settled phase freezes too).
   */
  readonly intensityChanged?: boolean | undefined;
  readonly shapeChanged: boolean;
  /**
   * The signal items changed. A memento's signals describe the turn that produced it and feed the
   * Breakpoint Engine when a client sends the memento back, so stale ones must not be handed out.
   */
  readonly signalsChanged?: boolean | undefined;
  /** Turns completed since the last persist, not counting this one (the store's counter). */
  readonly turnsSincePersist: number;
}

/**
 * Persist when nothing is persisted yet, the affect phase or intensity bucket, the shape or the
 * signals changed, or 5+ turns passed since the last persist.
 */
export function shouldPersistMemento(args: PersistMementoArgs): boolean {
  return (
    !args.hasPersisted ||
    args.phaseChanged ||
    args.intensityChanged === true ||
    args.shapeChanged ||
    args.signalsChanged === true ||
    args.turnsSincePersist >= MEMENTO_PERSIST_EVERY_TURNS
  );
}
