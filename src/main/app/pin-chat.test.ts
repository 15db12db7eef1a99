import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import type { SessionSummary } from '../../shared/transcript';

// "Pin chat" (issue 23): a call through the router like "Rename chat", kept with the chat's
// summary in its log and in the chats index, so the pin is still there after a restart.

let app: TestApp;

async function chatWithMessage(text: string): Promise<string> {
  const { id } = await app.call('newSession', {});
  const from = app.events.length;
  await app.call('sendMessage', { sessionId: id, text });
  await app.idle(id, from);
  return id;
}

const pinnedOf = async (id: string) => (await app.call('listSessions', {})).sessions.find((s) => s.id === id)?.pinned;

beforeEach(async () => {
  app = await startTestApp({ name: 'echo', turns: [], onExhausted: 'echo' });
});
afterEach(async () => {
  await app.close();
});

describe('pinSession', () => {
  it('pins a chat without moving its date, announces it, and the pin survives a restart', async () => {
    const id = await chatWithMessage('Keep this one at the top');
    const before = (await app.call('listSessions', {})).sessions.find((s) => s.id === id)!;
    const pinned = await app.call('pinSession', { sessionId: id, pinned: true });
    expect(pinned).toMatchObject({ id, pinned: true, title: before.title, updatedAt: before.updatedAt });
    expect(app.events.some((e) => e.type === 'session_updated' && e.session.id === id && e.session.pinned === true)).toBe(true);

    await app.restart();
    expect(await pinnedOf(id)).toBe(true);
    const index = JSON.parse(await readFile(join(app.dataDir, 'sessions', 'index.json'), 'utf8')) as { sessions: SessionSummary[] };
    expect(index.sessions.find((s) => s.id === id)?.pinned).toBe(true);

    await app.call('pinSession', { sessionId: id, pinned: false });
    await app.restart();
    expect(await pinnedOf(id)).toBeFalsy();
  });

  it('refuses a bad request with a clear message and changes nothing', async () => {
    const id = await chatWithMessage('Leave me as I am');
    expect(await app.router('pinSession', { sessionId: id, pinned: 'yes' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/pinned/) } });
    expect(await app.router('pinSession', { sessionId: id })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await app.router('pinSession', { sessionId: id, pinned: true, extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await app.router('pinSession', { sessionId: 'no-such-chat', pinned: true })).toMatchObject({ ok: false });
    expect(await pinnedOf(id)).toBeFalsy();
  });
});
