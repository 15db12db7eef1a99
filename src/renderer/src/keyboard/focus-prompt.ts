/**
 * Moves focus to the question Waypoint is waiting on: the approval card or the stuck step's
 * escalation (both alertdialogs, docs/contract.md §5). Returns whether there was one.
 */
export function focusPendingPrompt(doc: Document): boolean {
  const prompt = doc.querySelector<HTMLElement>('[role="alertdialog"]');
  if (!prompt) return false;
  prompt.focus();
  prompt.scrollIntoView?.({ block: 'nearest' });
  return true;
}

/** The message box, e.g. after a new chat has been opened from the keyboard. */
export function focusComposer(doc: Document): void {
  doc.querySelector<HTMLTextAreaElement>('form.composer textarea')?.focus();
}

/** A modal dialog (Settings, the shortcuts list, a confirmation) owns the keyboard while open. */
export function isModalOpen(doc: Document): boolean {
  return doc.querySelector('[aria-modal="true"], dialog[open]') !== null;
}

export function isInComposer(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('form.composer') !== null;
}
