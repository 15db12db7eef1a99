import type { ReactNode } from 'react';
import { createWaypointStore } from '../store/create-store';
import { StoreProvider } from '../store/store-context';
import type { WaypointStore } from '../store/types';
import { MemoryBackend } from './memory-backend';

/** A store on an in-memory backend and a `wrapper` for render() that provides it. */
export function storeWrapper(store: WaypointStore = createWaypointStore(new MemoryBackend())) {
  const wrapper = ({ children }: { children: ReactNode }) => <StoreProvider store={store}>{children}</StoreProvider>;
  return { store, wrapper };
}
