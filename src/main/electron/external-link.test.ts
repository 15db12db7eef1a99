import { describe, expect, it } from 'vitest';
import { consentDialogOptions, createExternalLinkOpener, openExternalWithConsent, type ExternalLinkPorts } from './external-link';

/** Records what would reach the consent dialog and shell.openExternal. */
function ports(answer: boolean | (() => Promise<boolean>)) {
  const asked: string[] = [];
  const opened: string[] = [];
  const p: ExternalLinkPorts = {
    confirm: async (url) => {
      asked.push(url);
      return typeof answer === 'function' ? answer() : answer;
    },
    open: async (url) => {
      opened.push(url);
    },
  };
  return { p, asked, opened };
}

describe('openExternal with consent', () => {
  it('opens an https link only after the user agrees to that exact URL', async () => {
    const yes = ports(true);
    expect(await openExternalWithConsent('https://docs.anthropic.com/en/api', yes.p)).toEqual({ kind: 'opened', url: 'https://docs.anthropic.com/en/api' });
    expect(yes.asked).toEqual(['https://docs.anthropic.com/en/api']);
    expect(yes.opened).toEqual(['https://docs.anthropic.com/en/api']);
  });

  it('opens nothing when the user declines', async () => {
    const no = ports(false);
    expect(await openExternalWithConsent('http://example.com/a', no.p)).toEqual({ kind: 'declined', url: 'http://example.com/a' });
    expect(no.asked).toEqual(['http://example.com/a']);
    expect(no.opened).toEqual([]);
  });

  it('never asks about, nor opens, a non-web URL', async () => {
    const yes = ports(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'app://waypoint/index.html', 'https://user:pw@example.com/']) {
      expect((await openExternalWithConsent(bad, yes.p)).kind, bad).toBe('refused');
    }
    expect(yes.asked).toEqual([]);
    expect(yes.opened).toEqual([]);
  });

  it('asks one question at a time: links while a prompt is open are refused', async () => {
    let answer!: (v: boolean) => void;
    const slow = ports(() => new Promise<boolean>((r) => (answer = r)));
    const open = createExternalLinkOpener(slow.p);
    const first = open('https://a.example/');
    expect(await open('https://b.example/')).toEqual({ kind: 'refused', reason: 'Another link is waiting for your answer.' });
    answer(true);
    expect(await first).toEqual({ kind: 'opened', url: 'https://a.example/' });
    expect(slow.asked).toEqual(['https://a.example/']);
    const next = open('https://c.example/');
    answer(false);
    expect(await next).toEqual({ kind: 'declined', url: 'https://c.example/' });
  });

  it('shows the URL in the dialog and defaults to Cancel', () => {
    const options = consentDialogOptions('https://example.com/x');
    expect(options.detail).toBe('https://example.com/x');
    expect(options.buttons[options.defaultId]).toBe('Cancel');
    expect(options.cancelId).toBe(options.defaultId);
  });
});
