import { cleanup, render } from '@testing-library/react';
import { App } from '../components/App';
import { connectStore, type ConnectOptions } from '../store/connect';
import { createWaypointStore } from '../store/create-store';
import { StoreProvider } from '../store/store-context';
import type { WaypointStore } from '../store/types';
import { fakeLayout } from './fake-layout';
import type { MemoryBackend } from './memory-backend';

const connections: Array<() => void> = [];
let restoreLayout: (() => void) | null = null;

/** The whole app on an in-memory backend, connected as main.tsx connects it (frames run at once). */
export function mountApp(backend: MemoryBackend, options: Pick<ConnectOptions, 'preferredChat'> = {}): WaypointStore {
  restoreLayout ??= fakeLayout();
  const store = createWaypointStore(backend);
  connections.push(connectStore(backend, store, { schedule: (f) => (f(), () => {}), bookkeepingSchedule: (f) => (f(), () => {}), retryDelayMs: () => 20, ...options }));
  render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
  return store;
}

/** For afterEach: disconnects every mounted app and unmounts it. */
export function unmountApps(): void {
  for (const disconnect of connections.splice(0)) disconnect();
  cleanup();
  restoreLayout?.();
  restoreLayout = null;
}
