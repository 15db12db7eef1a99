import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, takePageToken, type PageTokenHost } from './page-token';

/** A tab's address bar, history entry and sessionStorage, as takePageToken sees them. */
function tab(href: string, stored: Record<string, string> = {}, storageFails = false) {
  const storage = new Map(Object.entries(stored));
  const host: PageTokenHost & { replaced: string[] } = {
    replaced: [],
    location: {
      get href() {
        return href;
      },
      get search() {
        return new URL(href).search;
      },
    },
    history: {
      state: { kept: true },
      replaceState(_state: unknown, _title: string, url?: string | URL | null) {
        host.replaced.push(String(url));
        href = new URL(String(url), href).href;
      },
    },
    sessionStorage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => {
        if (storageFails) throw new Error('QuotaExceededError');
        storage.set(key, value);
      },
    },
  };
  return { host, storage, href: () => href };
}

describe('takePageToken', () => {
  it('takes the token out of the address bar, keeps everything else, and remembers it for the tab', () => {
    const t = tab('http://127.0.0.1:4312/?view=x&token=abc-123#chat');
    expect(takePageToken(t.host)).toBe('abc-123');
    expect(t.href()).toBe('http://127.0.0.1:4312/?view=x#chat');
    expect(t.storage.get(TOKEN_KEY)).toBe('abc-123');
    // A reload: the address has no token now, the tab still has it.
    expect(takePageToken(t.host)).toBe('abc-123');
    expect(t.host.replaced).toHaveLength(1);
  });

  it('a token in the URL wins over the one the tab kept (a newer link pasted into it)', () => {
    const t = tab('http://127.0.0.1:4312/?token=new', { [TOKEN_KEY]: 'stale' });
    expect(takePageToken(t.host)).toBe('new');
    expect(t.storage.get(TOKEN_KEY)).toBe('new');
    expect(t.href()).toBe('http://127.0.0.1:4312/');
  });

  it('no token anywhere is an empty one (the shell refuses it and the page says the link is not valid)', () => {
    expect(takePageToken(tab('http://127.0.0.1:4312/').host)).toBe('');
  });

  it('storage that refuses to keep it leaves the URL as it is, so a reload still works', () => {
    const t = tab('http://127.0.0.1:4312/?token=abc', {}, true);
    expect(takePageToken(t.host)).toBe('abc');
    expect(t.href()).toBe('http://127.0.0.1:4312/?token=abc');
    expect(t.host.replaced).toEqual([]);
  });
});
