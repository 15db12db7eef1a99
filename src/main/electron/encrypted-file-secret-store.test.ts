import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncryptedFileSecretStore } from './encrypted-file-secret-store';
import { aesCipher } from '../../../test-support/main/aes-cipher';

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
