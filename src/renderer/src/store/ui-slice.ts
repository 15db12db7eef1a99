import { holds } from './transcript-window';
import type { SliceCreator } from './types';

const PLAN_COLLAPSED_KEY = 'waypoint.taskPlan.collapsed';

function readCollapsed(): boolean {
  try {
    return globalThis.localStorage?.getItem(PLAN_COLLAPSED_KEY) === 'true';
  } catch {
    return false; // storage may be disabled; the panel then simply starts expanded
  }
}

/** A transcript item of a chat to bring into view; a new nonce asks again for the same item. */
export interface Reveal {
  sessionId: string;
  itemId: string;
  nonce: number;
}

/**
 * Renderer-only view state that both a click and a keyboard shortcut change: whether the plan
 * panel is collapsed (remembered across reloads and chats) and whether the shortcuts list is open.
 * Also the one way to bring a transcript item into view (find-in-chat drives it): the virtualised
 * transcript has most items out of the DOM, so nothing can scroll to them but the transcript.
 */
export interface UiSlice {
  planCollapsed: boolean;
  shortcutsOpen: boolean;
  reveal: Reveal | null;
  togglePlanPanel(): void;
  /**
   * Scrolls the current chat's transcript so the row holding `itemId` is centred, loading the
   * chat's older items down to it first when it is above what this tab holds (paged sessions).
   */
  revealItem(itemId: string): void;
  openShortcuts(): void;
  closeShortcuts(): void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  planCollapsed: readCollapsed(),
  shortcutsOpen: false,
  reveal: null,
  togglePlanPanel() {
    const next = !get().planCollapsed;
    set({ planCollapsed: next });
    try {
      globalThis.localStorage?.setItem(PLAN_COLLAPSED_KEY, String(next));
    } catch {
      // not remembered, still toggled
    }
  },
  // One modal at a time: the shortcuts list replaces Settings if that was open.
  openShortcuts: () => set({ shortcutsOpen: true, settingsOpen: false }),
  closeShortcuts: () => set({ shortcutsOpen: false }),
  revealItem(itemId) {
    const sessionId = get().currentSessionId;
    if (!sessionId) return;
    set({ reveal: { sessionId, itemId, nonce: (get().reveal?.nonce ?? 0) + 1 } });
    if (!holds(get().transcripts[sessionId], itemId)) void get().loadOlder(sessionId, { kind: 'through', itemId });
  },
});
