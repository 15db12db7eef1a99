import { readFileSync, rmSync } from 'node:fs';
import type { SecretStore } from '../settings/api-key-store';
import { writeFileAtomicSync } from '../common/atomic-write';

/** The OS keychain behind Electron's safeStorage, as far as this store needs it. */
export interface SecretCipher {
  /** False when the OS offers no real keychain (e.g. Linux without a secret service). */
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

/**
 * A typed API key, encrypted by the OS keychain and kept in one file. Without a keychain the
 * key is held in memory only (and the user is told): never written in plain text.
 */
export class EncryptedFileSecretStore implements SecretStore {
  private memoryOnly: string | null = null;

  constructor(
    private readonly filePath: string,
    private readonly cipher: SecretCipher,
    private readonly warn: (message: string) => void = (m) => console.warn(`[waypoint] ${m}`),
    /** What the file holds, in the warnings: the API key, or remote MCP servers' sign-ins. */
    private readonly what: { noun: string; again: string } = { noun: 'the API key', again: 'enter the key again' },
  ) {}

  load(): string | null {
    if (this.memoryOnly !== null) return this.memoryOnly;
    let data: Buffer;
    try {
      data = readFileSync(this.filePath);
    } catch {
      return null;
    }
    if (!this.cipher.isAvailable()) {
      this.warn(`Waypoint saved ${this.what.noun} but the system keychain is unavailable; ${this.what.again}.`);
      return null;
    }
    try {
      return this.cipher.decrypt(data);
    } catch {
      this.warn(`The saved ${this.what.noun.replace(/^the /, '')} could not be decrypted (keychain changed?); ${this.what.again} in Settings.`);
      return null;
    }
  }

  save(key: string | null): void {
    if (key === null) {
      this.memoryOnly = null;
      rmSync(this.filePath, { force: true });
      return;
    }
    if (!this.cipher.isAvailable()) {
      this.memoryOnly = key;
      this.warn(`No system keychain: ${this.what.noun} ${this.what.noun.endsWith('s') ? 'are' : 'is'} kept for this session only.`);
      return;
    }
    writeFileAtomicSync(this.filePath, this.cipher.encrypt(key), { mode: 0o600 });
    this.memoryOnly = null;
  }
}
