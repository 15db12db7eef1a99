import { randomUUID } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { ApprovalRuleFields, type ApprovalRule } from '../../shared/approval-rules';
import {
  Settings,
  SettingsPatch,
  defaultSettings,
  type Settings as SettingsValue,
} from '../../shared/settings';
import { describeZodError } from '../../shared/contract';
import { Emitter, type Disposable } from '../common/emitter';
import { UserFacingError } from '../common/errors';
import { fsFailureWords } from '../common/fs-words';
import { readRegularFile } from '../common/regular-file';
import { writeFileAtomic } from '../common/atomic-write';
import { migrateSettings } from './settings-migration';

export const SETTINGS_FILE = 'settings.json';

/** How the settings file looked when the app started. */
export type SettingsLoadStatus =
  | { kind: 'loaded' }
  | { kind: 'missing' }
  /** The file was unreadable or invalid: kept aside as a backup and replaced by defaults. */
  | { kind: 'reset'; reason: string; backupPath: string };

export interface SettingsStoreOptions {
  /** Writes the whole file (atomically in the app; tests put a full or read-only disk in its place). */
  writeFile?: (path: string, content: string) => Promise<void>;
}

/**
 * Settings on disk (`<dataDir>/settings.json`). The file is validated on load and every patch
 * is validated before it is merged; a damaged file never stops the app from starting.
 * The API key is not a setting and never reaches this file (the schema strips unknown keys).
 */
export class SettingsStore {
  private readonly changed = new Emitter<SettingsValue>();
  /** Serialises writes so two quick updates cannot land out of order. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly filePath: string,
    private current: SettingsValue,
    readonly loadStatus: SettingsLoadStatus,
    private readonly writeFile: SettingsStoreOptions['writeFile'] & {},
  ) {}

  static async open(dataDir: string, options: SettingsStoreOptions = {}): Promise<SettingsStore> {
    await mkdir(dataDir, { recursive: true });
    const filePath = join(dataDir, SETTINGS_FILE);
    const loaded = await loadSettingsFile(filePath);
    return new SettingsStore(filePath, loaded.settings, loaded.status, options.writeFile ?? writePrivately);
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
    return this.change((current) => ({ ...current, ...stripUndefined(parsed.data) }));
  }

  /**
   * Saves an approval rule for every chat ("Always approve", Settings). Each change reads the
   * rules as they are when it runs, so two tabs adding and removing at once lose nothing. The
   * same rule twice is kept once. Returns the rule as saved.
   */
  async addApprovalRule(fields: unknown): Promise<ApprovalRule> {
    const parsed = ApprovalRuleFields.safeParse(fields);
    if (!parsed.success) throw new UserFacingError('invalid_input', `Rule not saved: ${describeZodError(parsed.error)}`);
    const { tool, server, pattern, effect } = parsed.data;
    let saved: ApprovalRule | undefined;
    await this.change((current) => {
      const same = current.approvalRules.find((r) => r.tool === tool && r.server === server && r.pattern === pattern.trim());
      if (same?.effect === effect) {
        saved = same;
        return current;
      }
      saved = { id: randomUUID(), tool, ...(server ? { server } : {}), pattern: pattern.trim(), effect, createdAt: new Date().toISOString() };
      // A rule for the same tool and pattern with the other effect is replaced: the newest word counts.
      return { ...current, approvalRules: [...current.approvalRules.filter((r) => r !== same), saved] };
    });
    return saved!;
  }

  /** "Remove rule": takes effect for the very next tool call. A rule already gone is an error that says so. */
  async removeApprovalRule(id: string): Promise<void> {
    let found: ApprovalRule | undefined;
    await this.change((current) => {
      found = current.approvalRules.find((r) => r.id === id);
      return found ? { ...current, approvalRules: current.approvalRules.filter((r) => r.id !== id) } : current;
    });
    if (!found) throw new UserFacingError('not_found', 'That approval rule was already removed.');
  }

  /** One change at a time, each on the settings as the previous one left them. */
  private change(next: (current: SettingsValue) => unknown): Promise<SettingsValue> {
    const run = this.queue.then(async () => {
      const candidate = next(this.current);
      if (candidate === this.current) return this.current;
      const parsed = Settings.safeParse(candidate);
      if (!parsed.success) throw new UserFacingError('invalid_input', `Settings not saved: ${describeZodError(parsed.error)}`);
      try {
        await this.writeFile(this.filePath, `${JSON.stringify(parsed.data, null, 2)}\n`);
      } catch (error) {
        // A full or read-only disk is the user's to fix: they hear what happened, not "internal error".
        throw new UserFacingError('internal', `Waypoint could not save Settings: ${fsFailureWords(error)}. The change was not made; Settings stay as they were in ${this.filePath}.`);
      }
      this.current = parsed.data;
      this.changed.fire(parsed.data);
      return parsed.data;
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
    // Never a FIFO or a device: their read would wait forever (regular-file.ts).
    text = (await readRegularFile(filePath)).toString('utf8');
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
  const migrated = migrateSettings(json);
  const parsed = Settings.safeParse(migrated.value);
  if (!parsed.success) return resetDamaged(filePath, `it has invalid values (${describeZodError(parsed.error)})`);
  if (migrated.notes.length) {
    // Written back at once: the next start reads today's shape, and the old list is never lost.
    await writePrivately(filePath, `${JSON.stringify(parsed.data, null, 2)}\n`);
    for (const note of migrated.notes) console.warn(`[waypoint] ${note}`);
  }
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
  await writePrivately(filePath, `${JSON.stringify(settings, null, 2)}\n`);
  console.warn(`[waypoint] Settings file ${filePath} was reset to defaults because ${reason}. The old file is kept as ${backupPath}.`);
  return { settings, status: { kind: 'reset', reason, backupPath } };
}

/** Settings are the user's own: readable by them alone. */
const writePrivately = (path: string, content: string): Promise<void> => writeFileAtomic(path, content, { mode: 0o600 });
