import type { WaypointApi } from '../../../shared/contract';
import { checkToken, tokenCheckUrl } from './token-check';
import { createWsApi } from './ws-client';
import './window';

/** The WebSocket URL of the web shell that served this page, carrying its access token. */
export function webSocketUrl(location: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}

let cached: WaypointApi | null = null;

/** Electron's preload api when present, otherwise one shared WebSocket client to the web shell. */
export function getApi(): WaypointApi {
  if (window.waypoint) return window.waypoint;
  if (!cached) {
    const checkUrl = tokenCheckUrl(window.location);
    cached = createWsApi({ url: webSocketUrl(window.location), checkToken: () => checkToken(checkUrl) });
  }
  return cached;
}
