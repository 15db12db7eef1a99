import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';

// "Chat model" (issue 23 item 19): the chat's own model, chosen in its header, kept with the chat's
// summary (like a pin) so it survives a restart; the chat's requests use it, other chats keep the
// default in Settings.

let app: TestApp;

/** Sends and waits for the reply; the model of the request that carried the message (a title request may follow it). */
async function sendAndWait(id: string, text: string): Promise<string> {
  const from = app.api.requests.length;
  const fromEvent = app.events.length;
  await app.call('sendMessage', { sessionId: id, text });
  await app.idle(id, fromEvent);
  const sent = app.api.requests.slice(from).find((r) => JSON.stringify(r.body).includes(text));
  return (sent!.body as { model: string }).model;
}

const summaryOf = async (id: string) => (await app.call('listSessions', {})).sessions.find((s) => s.id === id);

beforeEach(async () => {
  app = await startTestApp({ name: 'echo', turns: [], onExhausted: 'echo' });
});
afterEach(async () => {
  await app.close();
});

describe('setSessionModel', () => {
  it("the chat's requests use its model, another chat keeps the default, and the choice survives a restart", async () => {
    const { model: byDefault } = (await app.call('getSettings', {})).settings;
    const { id } = await app.call('newSession', {});
    const set = await app.call('setSessionModel', { sessionId: id, model: 'claude-haiku-4-5' });
    expect(set).toMatchObject({ id, model: 'claude-haiku-4-5' });
    expect(app.events.some((e) => e.type === 'session_updated' && e.session.id === id && e.session.model === 'claude-haiku-4-5')).toBe(true);
    expect(await sendAndWait(id, 'Hello from the small model')).toBe('claude-haiku-4-5');
    // (A new chat is another one only once the first has a message: an empty chat is reused.)
    const { id: other } = await app.call('newSession', {});
    expect(other).not.toBe(id);
    expect(await sendAndWait(other, 'Hello from the default')).toBe(byDefault);

    await app.restart();
    expect((await summaryOf(id))?.model).toBe('claude-haiku-4-5');
    expect(await sendAndWait(id, 'Still the small model?')).toBe('claude-haiku-4-5');

    // null: back to the default in Settings.
    expect((await app.call('setSessionModel', { sessionId: id, model: null })).model).toBeUndefined();
    expect(await sendAndWait(id, 'And now the default')).toBe(byDefault);
  });

  it('refuses a bad request with a clear message and changes nothing', async () => {
    const { id } = await app.call('newSession', {});
    await app.call('setSessionModel', { sessionId: id, model: 'claude-haiku-4-5' });
    expect(await app.router('setSessionModel', { sessionId: id, model: '  ' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/model is empty/) } });
    expect(await app.router('setSessionModel', { sessionId: id, model: 42 })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/model/) } });
    expect(await app.router('setSessionModel', { sessionId: id })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await app.router('setSessionModel', { sessionId: id, model: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await app.router('setSessionModel', { sessionId: 'no-such-chat', model: 'claude-haiku-4-5' })).toMatchObject({ ok: false });
    expect((await summaryOf(id))?.model).toBe('claude-haiku-4-5');
  });
});
