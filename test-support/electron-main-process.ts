/**
 * The built desktop main (out/main/index.js) in a process of its own, against the electron
 * stand-in, for what vitest's in-process mock cannot show: main starting itself again without
 * secrets (electron/secret-relaunch.ts). Run with `node --import tsx`; stdout gets one JSON line
 * per role: the process that opened the window ("window", then it leaves with code 3), and the
 * launcher when main ends it ("launcher", with app.exit's code).
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { IPC_CALL_CHANNEL } from '../src/shared/contract';

register(new URL('./electron-alias-hooks.mjs', import.meta.url));
const standIn = new URL('./electron-stand-in.ts', import.meta.url).href;
const { app, recorded } = (await import(standIn)) as typeof import('./electron-stand-in');

function report(role: string, extra: Record<string, unknown> = {}): void {
  const environ = readFileSync('/proc/self/environ', 'utf8').split('\0').filter(Boolean);
  process.stdout.write(`${JSON.stringify({ role, pid: process.pid, ppid: process.ppid, windows: recorded.windows.length, environ, ...extra })}\n`);
}

app.exit = (code?: number) => {
  report('launcher', { code });
  process.exit(code ?? 0);
};
await import(resolve('out/main/index.js'));
app.makeReady();
const deadline = Date.now() + 20_000;
while (!recorded.windows[0]?.loadedUrls.length) {
  if (Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 20));
}
if (recorded.windows.length) {
  // What Settings would show: where main found the key (the handover, in memory).
  const call = recorded.ipcHandlers.get(IPC_CALL_CHANNEL) as (event: unknown, name: string, input: unknown) => Promise<unknown>;
  const settings = await call({ senderFrame: recorded.windows[0]!.webContents.mainFrame }, 'getSettings', {});
  report('window', { settings });
  process.exit(3);
}
