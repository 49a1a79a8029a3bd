import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

/**
 * Keyboard handling of a side panel (role dialog): focus moves into it when it opens, Escape closes
 * it, and when it closes focus goes back to the element that had it before (the button that opened
 * it), unless the user has since put focus somewhere else.
 */
export function useDialogFocus<T extends HTMLElement>(onClose: () => void): RefObject<T> {
  const panel = useRef<T>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const el = panel.current;
    if (el === null) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    el.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      close.current();
    };
    el.addEventListener("keydown", onKey);
    return () => {
      el.removeEventListener("keydown", onKey);
      const active = document.activeElement;
      const lost = active === null || active === document.body || el.contains(active);
      if (lost && opener?.isConnected) opener.focus();
    };
  }, []);

  return panel;
}
