import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';

/**
 * A chat listed from the chat index is read from its log only when it is used (docs/architecture.md,
 * "The chat index"). Everything a window asks about the whole list — at start, in the sidebar, in its
 * search, and a new chat looking for an empty one to reuse — must answer from the index, or a start
 * on a thousand chats reads a thousand logs again.
 */
let app: TestApp;
const ids: string[] = [];

beforeEach(async () => {
  app = await startTestApp({ name: 'echo', turns: [], onExhausted: 'echo' });
  ids.length = 0;
  for (const word of ['apples', 'pears', 'plums']) {
    const { id } = await app.call('newSession', {});
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: `A chat about ${word}` });
    await app.idle(id, from);
    ids.push(id);
  }
  await app.restart();
});
afterEach(async () => {
  await app.close();
});

const read = () => ids.filter((id) => app.services.chats.sessionInMemory(id));

describe('calls about the whole list of chats', () => {
  it('read no listed chat’s log; opening a chat reads that one only', async () => {
    expect(read()).toEqual([]);
    await app.call('getAppInfo', {});
    await app.call('getSettings', {});
    expect((await app.call('listSessions', {})).sessions.map((s) => s.id)).toEqual(expect.arrayContaining(ids));
    await app.call('getMcpStates', {});
    await app.call('listModels', {});
    expect((await app.call('searchSessions', { query: 'pears' })).results.map((r) => r.session.id)).toEqual([ids[1]]);
    expect((await app.call('searchSessions', { query: 'no chat says this' })).results).toEqual([]);
    const { id: fresh } = await app.call('newSession', {});
    expect(ids).not.toContain(fresh);
    expect(read()).toEqual([]);

    await app.call('getSession', { sessionId: ids[2] });
    expect(read()).toEqual([ids[2]]);
  });
});
