import type { AppSlice, SliceCreator } from './types';

export const createAppSlice: SliceCreator<AppSlice> = (set) => ({
  appInfo: null,
  connection: { state: 'open' },
  load: { status: 'loading' },
  lastError: null,
  setAppInfo: (appInfo) => set({ appInfo }),
  setConnection: (connection) => set({ connection }),
  setLoad: (load) => set({ load }),
  setLastError: (lastError) => set({ lastError }),
});
