import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Settings,
  SettingsPatch,
  defaultSettings,
  type Settings as SettingsValue,
} from '../../shared/settings';
import { describeZodError } from '../../shared/contract';
import { Emitter, type Disposable } from '../common/emitter';
import type { SettingsSource } from '../app/ports';
import { UserFacingError } from '../app/call-router';
import { writeFileAtomic } from './settings-store-atomic-write';

export const SETTINGS_FILE = 'settings.json';

/** How the settings file looked when the app started. */
export type SettingsLoadStatus =
  | { kind: 'loaded' }
  | { kind: 'missing' }
  /** The file was unreadable or invalid: kept aside as a backup and replaced by defaults. */
  | { kind: 'reset'; reason: string; backupPath: string };

/**
 * Settings on disk (`<dataDir>/settings.json`). The file is validated on load and every patch
 * is validated before it is merged; a damaged file never stops the app from starting.
 * The API key is not a setting and never reaches this file (the schema strips unknown keys).
 */
export class SettingsStore implements SettingsSource {
  private readonly changed = new Emitter<SettingsValue>();
  /** Serialises writes so two quick updates cannot land out of order. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly filePath: string,
    private current: SettingsValue,
    readonly loadStatus: SettingsLoadStatus,
  ) {}

  static async open(dataDir: string): Promise<SettingsStore> {
    await mkdir(dataDir, { recursive: true });
    const filePath = join(dataDir, SETTINGS_FILE);
    const loaded = await loadSettingsFile(filePath);
    return new SettingsStore(filePath, loaded.settings, loaded.status);
  }

  get(): SettingsValue {
    return this.current;
  }

  readonly onDidChange = (listener: (settings: SettingsValue) => void): Disposable => this.changed.event(listener);

  /** Validates, merges and persists a patch; an invalid patch changes nothing. */
  update(patch: unknown): Promise<SettingsValue> {
    const parsed = SettingsPatch.safeParse(patch);
    if (!parsed.success) {
      return Promise.reject(new UserFacingError('invalid_input', `Settings not saved: ${describeZodError(parsed.error)}`));
    }
    const run = this.queue.then(async () => {
      const next = Settings.parse({ ...this.current, ...stripUndefined(parsed.data) });
      await writeFileAtomic(this.filePath, `${JSON.stringify(next, null, 2)}\n`);
      this.current = next;
      this.changed.fire(next);
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function loadSettingsFile(filePath: string): Promise<{ settings: SettingsValue; status: SettingsLoadStatus }> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings(), status: { kind: 'missing' } };
    return resetDamaged(filePath, `it could not be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return resetDamaged(filePath, `it is not valid JSON (${(error as Error).message})`);
  }
  const parsed = Settings.safeParse(json);
  if (!parsed.success) return resetDamaged(filePath, `it has invalid values (${describeZodError(parsed.error)})`);
  return { settings: parsed.data, status: { kind: 'loaded' } };
}

/** Keeps the damaged file for the user to inspect and starts from defaults. */
async function resetDamaged(
  filePath: string,
  reason: string,
): Promise<{ settings: SettingsValue; status: SettingsLoadStatus }> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backupPath = `${filePath}.bak-${stamp}`;
  const settings = defaultSettings();
  await rename(filePath, backupPath);
  await writeFileAtomic(filePath, `${JSON.stringify(settings, null, 2)}\n`);
  console.warn(`[waypoint] Settings file ${filePath} was reset to defaults because ${reason}. The old file is kept as ${backupPath}.`);
  return { settings, status: { kind: 'reset', reason, backupPath } };
}
