import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncryptedFileSecretStore, type SecretCipher } from './encrypted-file-secret-store';

/** A real AES-256-GCM cipher standing where Electron's safeStorage sits in the app. */
function aesCipher(available = true): SecretCipher {
  const key = randomBytes(32);
  return {
    isAvailable: () => available,
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt(data) {
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

let dir: string;
let warnings: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-secret-'));
  warnings = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('EncryptedFileSecretStore', () => {
  it('saves the key encrypted, never in plain text, and reads it back', () => {
    const file = join(dir, 'api-key.bin');
    const cipher = aesCipher();
    new EncryptedFileSecretStore(file, cipher).save('sk-ant-test-secret');
    expect(readFileSync(file).toString('latin1')).not.toContain('sk-ant');
    expect(new EncryptedFileSecretStore(file, cipher).load()).toBe('sk-ant-test-secret');
    expect(readdirSync(dir)).toEqual(['api-key.bin']);
  });

  it('clears the file with null', () => {
    const file = join(dir, 'api-key.bin');
    const store = new EncryptedFileSecretStore(file, aesCipher());
    store.save('sk-1');
    store.save(null);
    expect(existsSync(file)).toBe(false);
    expect(store.load()).toBeNull();
  });

  it('without a keychain keeps the key in memory only and says so', () => {
    const file = join(dir, 'api-key.bin');
    const store = new EncryptedFileSecretStore(file, aesCipher(false), (m) => warnings.push(m));
    store.save('sk-mem');
    expect(store.load()).toBe('sk-mem');
    expect(existsSync(file)).toBe(false);
    expect(warnings.join()).toMatch(/session only/);
  });

  it('a key encrypted by another keychain is reported, not crashed on', () => {
    const file = join(dir, 'api-key.bin');
    new EncryptedFileSecretStore(file, aesCipher()).save('sk-old');
    const store = new EncryptedFileSecretStore(file, aesCipher(), (m) => warnings.push(m));
    expect(store.load()).toBeNull();
    expect(warnings.join()).toMatch(/could not be decrypted/);
  });
});
