import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { WaypointState, WaypointStore } from './types';

const StoreContext = createContext<WaypointStore | null>(null);

export function StoreProvider({ store, children }: { store: WaypointStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** Reads a slice of the store; components re-render only when what they select changes. */
export function useWaypoint<T>(selector: (state: WaypointState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWaypoint must be used inside <StoreProvider>.');
  return useStore(store, selector);
}
