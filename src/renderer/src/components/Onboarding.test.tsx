// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../test-support/memory-backend';
import { mountApp, unmountApps } from '../test-support/mount-app';

afterEach(unmountApps);

function firstRun(shell: 'web' | 'electron') {
  const backend = new MemoryBackend({ hasApiKey: false });
  backend.override('getAppInfo', () => ({ shell, version: 't', workspace: null }));
  mountApp(backend);
}

describe('first run', () => {
  it('in the web shell, says the key is kept in memory only, for this run; the key field has the focus', async () => {
    firstRun('web');
    const key = await screen.findByLabelText('API key');
    expect(document.activeElement).toBe(key);
    const said = document.getElementById(key.getAttribute('aria-describedby')!)!.textContent;
    expect(said).toContain('keeps it in memory only, for this run');
    expect(said).not.toMatch(/encrypted/);
  });

  it("in the desktop app, says the key is saved encrypted with the system's keychain (safeStorage)", async () => {
    firstRun('electron');
    const key = await screen.findByLabelText('API key');
    const said = document.getElementById(key.getAttribute('aria-describedby')!)!.textContent;
    expect(said).toContain("saves it encrypted with your system's keychain (Electron safeStorage)");
    expect(said).toContain('where there is no keychain, it is kept in memory only');
  });
});
