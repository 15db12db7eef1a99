import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../../shared/settings';
import { SettingsStore, SETTINGS_FILE } from './settings-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-settings-'));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const readJson = async () => JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')) as Record<string, unknown>;

describe('SettingsStore', () => {
  it('starts from defaults when there is no file, creating the data dir', async () => {
    const nested = join(dir, 'a', 'b');
    const store = await SettingsStore.open(nested);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.loadStatus).toEqual({ kind: 'missing' });
  });

  it('loads a valid file', async () => {
    await writeFile(join(dir, SETTINGS_FILE), JSON.stringify({ model: 'claude-opus-4-1', maxRetries: 5 }));
    const store = await SettingsStore.open(dir);
    expect(store.get().model).toBe('claude-opus-4-1');
    expect(store.get().maxRetries).toBe(5);
    expect(store.get().agenticMode).toBe(true);
    expect(store.loadStatus).toEqual({ kind: 'loaded' });
  });

  it('keeps damaged JSON as a backup, warns, and starts from defaults', async () => {
    await writeFile(join(dir, SETTINGS_FILE), '{"model": "x",,,');
    const store = await SettingsStore.open(dir);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.loadStatus.kind).toBe('reset');
    if (store.loadStatus.kind !== 'reset') throw new Error('unreachable');
    expect(store.loadStatus.reason).toMatch(/not valid JSON/);
    expect(await readFile(store.loadStatus.backupPath, 'utf8')).toBe('{"model": "x",,,');
    expect(store.loadStatus.backupPath).toMatch(/settings\.json\.bak-\d{4}-/);
    expect(await readJson()).toEqual(defaultSettings());
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('reset to defaults'));
  });

  it('resets a file with wrong types and names the bad field', async () => {
    await writeFile(join(dir, SETTINGS_FILE), JSON.stringify({ maxRetries: 'three', agenticMode: 'yes' }));
    const store = await SettingsStore.open(dir);
    expect(store.get()).toEqual(defaultSettings());
    if (store.loadStatus.kind !== 'reset') throw new Error(`expected reset, got ${store.loadStatus.kind}`);
    expect(store.loadStatus.reason).toMatch(/maxRetries/);
  });

  it('ignores unknown keys (e.g. from a newer version, or an api key pasted by hand) and never writes them', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({ model: 'claude-haiku-4-5', futureOption: 1, apiKey: 'sk-ant-secret' }),
    );
    const store = await SettingsStore.open(dir);
    expect(store.loadStatus).toEqual({ kind: 'loaded' });
    expect(store.get().model).toBe('claude-haiku-4-5');
    expect(store.get()).not.toHaveProperty('apiKey');
    await store.update({ maxRetries: 3 });
    const text = await readFile(join(dir, SETTINGS_FILE), 'utf8');
    expect(text).not.toContain('sk-ant-secret');
    expect(text).not.toContain('futureOption');
  });

  it('validates, merges, persists and announces an update', async () => {
    const store = await SettingsStore.open(dir);
    const seen: number[] = [];
    const sub = store.onDidChange((s) => seen.push(s.maxRetries));
    const next = await store.update({ maxRetries: 4, planningStyle: 'wbs' });
    expect(next.maxRetries).toBe(4);
    expect(next.model).toBe(defaultSettings().model);
    expect(seen).toEqual([4]);
    expect(await readJson()).toMatchObject({ maxRetries: 4, planningStyle: 'wbs' });
    sub.dispose();
    await store.update({ maxRetries: 1 });
    expect(seen).toEqual([4]);
    const reopened = await SettingsStore.open(dir);
    expect(reopened.get().maxRetries).toBe(1);
    expect(reopened.get().planningStyle).toBe('wbs');
  });

  it('refuses an invalid patch with a clear message and changes nothing', async () => {
    const store = await SettingsStore.open(dir);
    await store.update({ model: 'claude-opus-4-1' });
    const before = await readFile(join(dir, SETTINGS_FILE), 'utf8');
    const listener = vi.fn();
    store.onDidChange(listener);
    await expect(store.update({ maxRetries: 99 })).rejects.toThrow(/Settings not saved: maxRetries/);
    await expect(store.update({ apiKey: 'sk-ant' })).rejects.toThrow(/Settings not saved/);
    await expect(store.update('nonsense')).rejects.toThrow(/Settings not saved/);
    expect(store.get().model).toBe('claude-opus-4-1');
    expect(await readFile(join(dir, SETTINGS_FILE), 'utf8')).toBe(before);
    expect(listener).not.toHaveBeenCalled();
  });

  it('writes atomically: concurrent updates all land, in order, with no temp files left', async () => {
    const store = await SettingsStore.open(dir);
    await Promise.all([0, 1, 2, 3, 4, 5].map((n) => store.update({ maxRetries: n })));
    expect(store.get().maxRetries).toBe(5);
    expect((await readJson()).maxRetries).toBe(5);
    expect(await readdir(dir)).toEqual([SETTINGS_FILE]);
  });
});

describe('a settings write that fails', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: simulated, write`), { code });
  it.each([
    ['ENOSPC', 'the disk is full'],
    ['EACCES', 'permission to write there was denied'],
    ['EROFS', 'the disk is read-only'],
  ])('(%s) reaches the user in words and changes nothing', async (code, words) => {
    const real = await SettingsStore.open(dir);
    await real.update({ maxRetries: 4 });
    real.dispose();
    const before = await readFile(join(dir, SETTINGS_FILE), 'utf8');
    // The file system as a seam, as the log writer's tests fake a full disk.
    const store = await SettingsStore.open(dir, { writeFile: () => Promise.reject(errno(code)) });
    const failed = store.update({ maxRetries: 7 });
    await expect(failed).rejects.toMatchObject({ name: 'UserFacingError', message: expect.stringContaining(`Waypoint could not save Settings: ${words}`) });
    expect(store.get().maxRetries).toBe(4);
    expect(await readFile(join(dir, SETTINGS_FILE), 'utf8')).toBe(before);
    // The next change is not stuck behind the failed one.
    await expect(store.addApprovalRule({ tool: 'run_command', pattern: 'ls', effect: 'allow' })).rejects.toThrow(/could not save Settings/);
  });
});
