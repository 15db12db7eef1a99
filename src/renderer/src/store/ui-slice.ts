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

/** A transcript disclosure's state: open or not, and the reveal that last opened it. */
export interface Disclosure {
  open: boolean;
  /** The `reveal.nonce` that opened it: each reveal opens it once, not again each time its row mounts. */
  revealed?: number;
}

/**
 * Renderer-only view state that both a click and a keyboard shortcut change: whether the plan
 * panel is collapsed (remembered across reloads and chats) and whether the shortcuts list is open.
 * Also the one way to bring a transcript item into view (find-in-chat drives it): the virtualised
 * transcript has most items out of the DOM, so nothing can scroll to them but the transcript.
 * For the same reason the transcript's disclosures (a "Thinking" block, a run of plan changes, a
 * "Compacted" marker, a tool card, a long message's "Show all") keep their state here: a row
 * scrolled out of view is unmounted, and must come back as the user left it.
 */
export interface UiSlice {
  planCollapsed: boolean;
  shortcutsOpen: boolean;
  reveal: Reveal | null;
  /** By key (the item's id; a run of plan changes: its first change's); absent: closed. */
  disclosures: Record<string, Disclosure>;
  togglePlanPanel(): void;
  /**
   * Scrolls the current chat's transcript so the row holding `itemId` is centred, loading the
   * chat's older items down to it first when it is above what this tab holds (paged sessions).
   */
  revealItem(itemId: string): void;
  openShortcuts(): void;
  closeShortcuts(): void;
  setDisclosure(key: string, open: boolean): void;
  /** Opens the disclosure for this reveal, unless this reveal already opened it (then the user's choice since stands). */
  openForReveal(key: string, nonce: number): void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  planCollapsed: readCollapsed(),
  shortcutsOpen: false,
  reveal: null,
  disclosures: {},
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
  setDisclosure: (key, open) => {
    const was = get().disclosures[key];
    if ((was?.open ?? false) !== open) set({ disclosures: { ...get().disclosures, [key]: { ...was, open } } });
  },
  openForReveal: (key, nonce) => {
    const was = get().disclosures[key];
    if (was?.revealed !== nonce) set({ disclosures: { ...get().disclosures, [key]: { open: true, revealed: nonce } } });
  },
});
