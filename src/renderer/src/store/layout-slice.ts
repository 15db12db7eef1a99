import type { Settings } from '../../../shared/settings';
import type { SliceCreator } from './types';

export type Theme = Settings['theme'];

/**
 * View state of the window's frame: whether the chats drawer is open (narrow windows only: wide
 * ones always show the sidebar), and the theme Settings previews before it is saved.
 */
export interface LayoutSlice {
  sidebarOpen: boolean;
  /** The theme picked in Settings and not yet saved: shown at once, dropped on Cancel. */
  themePreview: Theme | null;
  toggleSidebar(): void;
  closeSidebar(): void;
  previewTheme(theme: Theme | null): void;
}

export const createLayoutSlice: SliceCreator<LayoutSlice> = (set, get) => ({
  sidebarOpen: false,
  themePreview: null,
  toggleSidebar: () => set({ sidebarOpen: !get().sidebarOpen }),
  closeSidebar: () => set({ sidebarOpen: false }),
  previewTheme: (themePreview) => set({ themePreview }),
});

/** The theme to show now: the one being previewed in Settings, else the saved one. */
export function shownTheme(state: { themePreview: Theme | null; settingsView: { settings: { theme: Theme } } | null }): Theme {
  return state.themePreview ?? state.settingsView?.settings.theme ?? 'system';
}
