import { failed, OK } from './errors';
import type { SettingsSlice, SliceCreator } from './types';

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get, api) => ({
  settingsView: null,
  models: [],
  settingsOpen: false,
  setSettingsView: (view) => set({ settingsView: view }),
  openSettings() {
    set({ settingsOpen: true });
    void get().loadModels();
    void get().loadMcpStates();
  },
  closeSettings: () => set({ settingsOpen: false }),
  async loadModels() {
    try {
      const { models } = await api.call('listModels', {});
      set({ models });
    } catch {
      // The model select still offers the current model; nothing else depends on the list.
    }
  },
  async saveSettings(patch) {
    try {
      set({ settingsView: await api.call('setSettings', { patch }) });
      return OK;
    } catch (error) {
      return failed(error);
    }
  },
  async saveApiKey(apiKey) {
    try {
      const state = await api.call('setApiKey', { apiKey });
      const view = get().settingsView;
      if (view) set({ settingsView: { ...view, apiKey: state } });
      return OK;
    } catch (error) {
      return failed(error);
    }
  },
});
