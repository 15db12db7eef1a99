import type { WaypointApi } from '../../../shared/contract';
import { takePageToken } from './page-token';
import { checkToken, tokenCheckUrl } from './token-check';
import { createWsApi } from './ws-client';
import './window';

/** The WebSocket URL of the web shell that served this page, carrying its access token. */
export function webSocketUrl(location: Pick<Location, 'protocol' | 'host'>, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}

let cached: WaypointApi | null = null;

/** Electron's preload api when present, otherwise one shared WebSocket client to the web shell. */
export function getApi(): WaypointApi {
  if (window.waypoint) return window.waypoint;
  if (!cached) {
    const token = takePageToken(window);
    const checkUrl = tokenCheckUrl(window.location, token);
    cached = createWsApi({ url: webSocketUrl(window.location, token), checkToken: () => checkToken(checkUrl) });
  }
  return cached;
}
