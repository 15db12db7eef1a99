// Where Debian's Chromium lives; Playwright must never download its own browser here.
import { existsSync } from 'node:fs';

export function findChromium() {
  const candidates = [process.env.WAYPOINT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path) => path && existsSync(path)) ?? null;
}
