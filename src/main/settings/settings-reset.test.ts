import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from './api-key-store';
import { createServices, type AppServices } from '../app/services';

let dir: string;
let services: AppServices | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-settings-reset-'));
});
afterEach(async () => {
  await services?.dispose();
  services = null;
  await rm(dir, { recursive: true, force: true });
});

const open = async () => (services = await createServices({ dataDir: dir, workspace: null, shell: 'web', secretStore: new MemorySecretStore(), env: {} }));

describe('damaged settings at start', () => {
  it('start with defaults, keep a backup, and tell the UI where it is', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'settings.json'), '{"model": "claude-opus-4-1", "maxRetries": ');
    const app = await open();
    const info = await app.router('getAppInfo', {});
    expect(info.ok).toBe(true);
    const reset = (info as { value: { settingsReset?: { reason: string; backupPath: string } } }).value.settingsReset!;
    expect(reset.reason).toMatch(/not valid JSON/);
    expect(existsSync(reset.backupPath)).toBe(true);
    expect(await readFile(reset.backupPath, 'utf8')).toContain('"maxRetries": ');
    const settings = await app.router('getSettings', {});
    expect(settings).toMatchObject({ ok: true, value: { settings: { maxRetries: 2 } } });
  });

  it('says nothing when the settings file was fine or missing', async () => {
    const app = await open();
    const info = await app.router('getAppInfo', {});
    expect((info as { value: object }).value).not.toHaveProperty('settingsReset');
  });
});
