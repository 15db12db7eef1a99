import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import { NO_KEY_MESSAGE } from '../agent/loop/run-controller';

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

describe('New chat while two messages are on their way to one empty chat', () => {
  it('keeps off that chat until the last of them has answered', async () => {
    // Without a key both messages are refused, so the chat stays empty all along: only their
    // being on their way keeps New chat off it. The app of this file's beforeEach has a key.
    const keyless = await startTestApp({ name: 'echo', turns: [], onExhausted: 'echo' }, { services: { env: {} } });
    try {
      const { id } = await keyless.call('newSession', {});
      const text = Buffer.from('- buy milk\n- call Ana\n');
      const { uploadId } = await keyless.call('startUpload', { name: 'notes.txt', size: text.length, mediaType: 'text/plain' });
      await keyless.call('uploadChunk', { uploadId, offset: 0, data: text.toString('base64') });
      const notes = await keyless.call('finishUpload', { uploadId });
      // Both enter main in the same moment. The plain one is answered as soon as it is looked at;
      // the other still looks its attached file up in the data folder (a file read, so after the
      // first answer and the New chat below, which need none).
      const plain = keyless.call('sendMessage', { sessionId: id, text: 'Tidy the notes' });
      let attachedDone = false;
      // Its answer is kept (not left to reject unheard) for the end of the test.
      const attached = keyless
        .call('sendMessage', { sessionId: id, text: 'These ones', attachments: [{ id: notes.id, name: notes.name }] })
        .then(
          () => 'went in',
          (error: Error) => error.message,
        )
        .finally(() => {
          attachedDone = true;
        });
      await expect(plain).rejects.toThrow(NO_KEY_MESSAGE);
      const meanwhile = await keyless.call('newSession', {});
      // The overlap this test is about really happened: the second message had not answered yet.
      expect(attachedDone).toBe(false);
      expect(meanwhile.id).not.toBe(id);
      expect(await attached).toBe(NO_KEY_MESSAGE);
      // Both have answered and neither went in: the chat is empty again, and New chat may hand
      // back the newest empty one (the one just made), never a third.
      const after = await keyless.call('newSession', {});
      expect([id, meanwhile.id]).toContain(after.id);
      expect((await keyless.call('getSession', { sessionId: id })).transcript).toEqual([]);
    } finally {
      await keyless.close();
    }
  });
});
