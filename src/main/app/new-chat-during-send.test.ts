import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';

// New chat hands back the newest empty chat (no pile of empty chats), but a chat whose first
// message is on its way is not empty: New chat pressed right after Send is another chat.
let app: TestApp;

beforeEach(async () => {
  app = await startTestApp({ name: 'echo', turns: [], onExhausted: 'echo' });
});
afterEach(async () => {
  await app.close();
});

describe('New chat while the first message of the empty chat is on its way', () => {
  it('makes another chat; the message goes to the chat it was sent to', async () => {
    const { id } = await app.call('newSession', {});
    const from = app.events.length;
    // Both calls enter main in the same moment, as when New chat is pressed right after Send.
    const sending = app.call('sendMessage', { sessionId: id, text: 'Tidy the notes' });
    const made = app.call('newSession', {});
    const [, other] = await Promise.all([sending, made]);
    expect(other.id).not.toBe(id);
    await app.idle(id, from);
    const first = await app.call('getSession', { sessionId: id });
    const second = await app.call('getSession', { sessionId: other.id });
    expect(first.transcript.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual(['Tidy the notes']);
    expect(second.transcript).toEqual([]);
    // Once the message is in, a further New chat reuses the second, empty chat rather than making a third.
    expect((await app.call('newSession', {})).id).toBe(other.id);
  });

  it('a message refused before it goes in leaves the chat empty: New chat reuses it again', async () => {
    const { id } = await app.call('newSession', {});
    await expect(app.call('sendMessage', { sessionId: id, text: '' })).rejects.toThrow();
    expect((await app.call('newSession', {})).id).toBe(id);
  });
});
