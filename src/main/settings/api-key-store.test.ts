import { describe, expect, it } from 'vitest';
import { ApiKeyStore, MemorySecretStore } from './api-key-store';

describe('ApiKeyStore', () => {
  it('reports no key when neither settings nor env has one', () => {
    const store = new ApiKeyStore(new MemorySecretStore(), {});
    expect(store.getKey()).toBeNull();
    expect(store.state()).toEqual({ hasApiKey: false, source: 'none' });
  });

  it('uses ANTHROPIC_API_KEY from the environment, ignoring a blank one', () => {
    expect(new ApiKeyStore(new MemorySecretStore(), { ANTHROPIC_API_KEY: 'sk-env' }).state()).toEqual({
      hasApiKey: true,
      source: 'env',
    });
    expect(new ApiKeyStore(new MemorySecretStore(), { ANTHROPIC_API_KEY: '  ' }).state().source).toBe('none');
  });

  it('a typed key wins over the environment; clearing it falls back to the environment', () => {
    const secrets = new MemorySecretStore();
    const store = new ApiKeyStore(secrets, { ANTHROPIC_API_KEY: 'sk-env' });
    const states: string[] = [];
    store.onDidChange((s) => states.push(s.source));
    expect(store.set('sk-typed')).toEqual({ hasApiKey: true, source: 'settings' });
    expect(store.getKey()).toBe('sk-typed');
    expect(secrets.load()).toBe('sk-typed');
    expect(store.set(null)).toEqual({ hasApiKey: true, source: 'env' });
    expect(store.getKey()).toBe('sk-env');
    expect(secrets.load()).toBeNull();
    expect(states).toEqual(['settings', 'env']);
  });

  it('reads a key saved earlier by the secret store', () => {
    const secrets = new MemorySecretStore();
    secrets.save('sk-saved');
    const store = new ApiKeyStore(secrets, {});
    expect(store.getKey()).toBe('sk-saved');
    expect(store.state().source).toBe('settings');
  });
});
