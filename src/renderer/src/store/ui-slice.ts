import type { SliceCreator } from './types';

const PLAN_COLLAPSED_KEY = 'waypoint.taskPlan.collapsed';

function readCollapsed(): boolean {
  try {
    return globalThis.localStorage?.getItem(PLAN_COLLAPSED_KEY) === 'true';
  } catch {
    return false; // storage may be disabled; the panel then simply starts expanded
  }
}

/**
 * Renderer-only view state that both a click and a keyboard shortcut change: whether the plan
 * panel is collapsed (remembered across reloads and chats) and whether the shortcuts list is open.
 */
export interface UiSlice {
  planCollapsed: boolean;
  shortcutsOpen: boolean;
  togglePlanPanel(): void;
  openShortcuts(): void;
  closeShortcuts(): void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  planCollapsed: readCollapsed(),
  shortcutsOpen: false,
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
});
