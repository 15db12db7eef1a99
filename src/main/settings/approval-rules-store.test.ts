import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SettingsStore, SETTINGS_FILE } from './settings-store';
import { migrateSettings } from './settings-migration';

// Saved approval rules in settings.json: the old allow-list migrated, rules added and removed.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-rules-'));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const readJson = async () => JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')) as Record<string, unknown>;

describe('the command allow-list of earlier versions', () => {
  it('becomes "always allow" run_command rules, written back at once, with every other setting kept', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({ model: 'claude-opus-4-1', autoApproveEdits: true, commandAllowList: ['npm test', 'git   diff', 'npm test; rm -rf /', '  '] }),
    );
    const store = await SettingsStore.open(dir);
    expect(store.loadStatus).toEqual({ kind: 'loaded' });
    const settings = store.get();
    expect(settings).toMatchObject({ model: 'claude-opus-4-1', autoApproveEdits: true, autoApproveCommands: false });
    expect(settings.approvalRules.map((r) => [r.tool, r.pattern, r.effect])).toEqual([
      ['run_command', 'npm test', 'allow'],
      ['run_command', 'git   diff', 'allow'],
    ]);
    const onDisk = await readJson();
    expect(onDisk.commandAllowList).toBeUndefined();
    expect(onDisk.approvalRules).toEqual(settings.approvalRules);
    expect(vi.mocked(console.warn).mock.calls.flat().join('\n')).toContain('"npm test; rm -rf /" could not become an approval rule');
    // A second start finds today's shape: nothing changes, nothing is added twice.
    const again = await SettingsStore.open(dir);
    expect(again.get().approvalRules).toEqual(settings.approvalRules);
  });

  it('leaves a current file and anything that is not an object alone', () => {
    expect(migrateSettings({ model: 'x' })).toEqual({ value: { model: 'x' }, notes: [] });
    expect(migrateSettings(null)).toEqual({ value: null, notes: [] });
    expect(migrateSettings([1])).toEqual({ value: [1], notes: [] });
  });

  it('does not add a rule the file already has', () => {
    const existing = { id: 'r', tool: 'run_command', pattern: 'npm test', effect: 'allow', createdAt: 't' };
    const { value } = migrateSettings({ commandAllowList: ['npm test', 'ls'], approvalRules: [existing] });
    expect((value as { approvalRules: Array<{ pattern: string }> }).approvalRules.map((r) => r.pattern)).toEqual(['npm test', 'ls']);
  });
});

describe('approval rules in the settings store', () => {
  it('adds a rule (kept once), replaces one with the other effect, and removes it at once', async () => {
    const store = await SettingsStore.open(dir);
    const changes: number[] = [];
    store.onDidChange((s) => changes.push(s.approvalRules.length));
    const allow = await store.addApprovalRule({ tool: 'run_command', pattern: ' npm test ', effect: 'allow' });
    expect(allow).toMatchObject({ tool: 'run_command', pattern: 'npm test', effect: 'allow' });
    expect(await store.addApprovalRule({ tool: 'run_command', pattern: 'npm test', effect: 'allow' })).toEqual(allow);
    const deny = await store.addApprovalRule({ tool: 'run_command', pattern: 'npm test', effect: 'deny' });
    expect(store.get().approvalRules).toEqual([deny]);
    expect((await readJson()).approvalRules).toEqual([deny]);
    await store.removeApprovalRule(deny.id);
    expect(store.get().approvalRules).toEqual([]);
    expect(changes).toEqual([1, 1, 0]);
    await expect(store.removeApprovalRule(deny.id)).rejects.toThrow('That approval rule was already removed.');
  });

  it('refuses a rule with an empty pattern (or one no call could match) clearly, and saves nothing', async () => {
    const store = await SettingsStore.open(dir);
    await expect(store.addApprovalRule({ tool: 'run_command', pattern: '   ', effect: 'allow' })).rejects.toThrow(/Rule not saved: pattern: An approval rule needs a pattern/);
    await expect(store.addApprovalRule({ tool: 'write_file', pattern: '', effect: 'deny' })).rejects.toThrow(/needs a pattern/);
    await expect(store.addApprovalRule({ tool: 'run_command', pattern: 'make && make install', effect: 'allow' })).rejects.toThrow(/shell operators/);
    await expect(store.addApprovalRule({ tool: 'edit_file', pattern: '../outside/**', effect: 'allow' })).rejects.toThrow(/outside the workspace/);
    await expect(store.update({ approvalRules: [{ id: 'x', tool: 'run_command', pattern: '', effect: 'allow', createdAt: 't' }] })).rejects.toThrow(/needs a pattern/);
    expect(store.get().approvalRules).toEqual([]);
  });

  it('two changes at once both land (each on the rules the other left)', async () => {
    const store = await SettingsStore.open(dir);
    await Promise.all([
      store.addApprovalRule({ tool: 'run_command', pattern: 'npm test', effect: 'allow' }),
      store.addApprovalRule({ tool: 'write_file', pattern: 'docs/**', effect: 'allow' }),
      store.update({ theme: 'dark' }),
    ]);
    expect(store.get().approvalRules.map((r) => r.pattern).sort()).toEqual(['docs/**', 'npm test']);
    expect(store.get().theme).toBe('dark');
  });
});
