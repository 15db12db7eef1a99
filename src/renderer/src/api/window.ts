import type { WaypointApi } from '../../../shared/contract';

// The Electron preload exposes the typed api here; in a browser tab it is absent.
declare global {
  interface Window {
    waypoint?: WaypointApi;
  }
}

export {};
