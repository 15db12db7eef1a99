import { isPlanVisible } from '../../../shared/plan';
import type { WaypointStore } from '../store/types';
import { focusComposer, focusPendingPrompt, isInComposer, isModalOpen } from './focus-prompt';
import { matchGlobal } from './shortcuts';

/**
 * Listens for Waypoint's shortcuts on the document and calls store actions — outside React, like
 * connectStore. A modal dialog keeps the keyboard to itself (its Escape closes it), and Escape
 * stops Claude only from the message box, so it never fights a dialog. Returns the uninstall.
 */
export function installShortcuts(store: WaypointStore, doc: Document = document): () => void {
  const nextFrame = (fn: () => void) => (doc.defaultView?.requestAnimationFrame ?? setTimeout)(fn);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing || isModalOpen(doc)) return;
    const state = store.getState();

    if (event.key === 'Escape') {
      const sessionId = state.currentSessionId;
      const run = sessionId ? state.runStates[sessionId] : undefined;
      // A queued chat shows Stop too (its message waits for a slot): Escape takes it off the queue.
      const queued = !!state.sessions.find((s) => s.id === sessionId)?.queued;
      if (!isInComposer(event.target) || (!queued && (!run || run.status === 'idle'))) return;
      event.preventDefault();
      void state.stop();
      return;
    }

    const id = matchGlobal(event, state.appInfo?.shell === 'electron');
    if (!id) return;
    event.preventDefault();
    switch (id) {
      case 'newChat':
        void state.newChat().then(() => nextFrame(() => focusComposer(doc)));
        break;
      case 'togglePlan':
        // With no panel on screen a toggle would silently collapse the next plan's panel: say why nothing happened instead.
        if (isPlanVisible(state.currentSessionId ? state.plans[state.currentSessionId] : null)) state.togglePlanPanel();
        else state.announce('There is no plan in this chat.');
        break;
      case 'focusPrompt':
        focusPendingPrompt(doc);
        break;
      case 'settings':
        state.openSettings();
        break;
      case 'shortcuts':
        state.openShortcuts();
        break;
      case 'find':
        state.openFind();
        break;
      default:
        break;
    }
  };

  doc.addEventListener('keydown', onKeyDown);
  return () => doc.removeEventListener('keydown', onKeyDown);
}
