// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Attachment } from '../../../shared/attachments';
import { MemoryBackend } from '../test-support/memory-backend';
import { createWaypointStore } from './create-store';
import { NEW_CHAT_KEY } from './attachments-slice';

// The composer's attachments in the store: checked by name and size before any byte moves,
// uploaded in pieces through the validated calls, sent with the message, kept on a refusal.

function backend(chunkBytes = 4) {
  const api = new MemoryBackend();
  const uploads = new Map<string, { name: string; size: number; parts: Buffer[] }>();
  api.override('startUpload', ({ name, size }) => {
    const uploadId = `u${uploads.size + 1}`;
    uploads.set(uploadId, { name, size, parts: [] });
    return { uploadId, chunkBytes };
  });
  api.override('uploadChunk', ({ uploadId, data }) => {
    const upload = uploads.get(uploadId)!;
    upload.parts.push(Buffer.from(data, 'base64'));
    return { received: upload.parts.reduce((n, p) => n + p.length, 0) };
  });
  api.override('finishUpload', ({ uploadId }): Attachment => {
    const { name, parts } = uploads.get(uploadId)!;
    const bytes = Buffer.concat(parts);
    if (name.endsWith('.png')) throw new Error(`"${name}" is damaged and cannot be sent.`);
    return { id: createHash('sha256').update(bytes).digest('hex'), name, kind: 'text', mediaType: 'text/plain', size: bytes.length };
  });
  return { api, uploads, store: createWaypointStore(api) };
}

const file = (name: string, text: string, type = 'text/plain') => new File([text], name, { type });

describe('attachments in the store', () => {
  it('uploads each file in pieces and sends the message with them, then clears the chips', async () => {
    const { api, uploads, store } = backend(4);
    await store.getState().addFiles([file('notes.txt', 'Remember the milk')]);
    const pending = store.getState().pendingAttachments[NEW_CHAT_KEY]!;
    expect(pending).toEqual([expect.objectContaining({ name: 'notes.txt', status: 'ready', sent: 17 })]);
    expect(Buffer.concat(uploads.get('u1')!.parts).toString()).toBe('Remember the milk');
    expect(api.log.filter((c) => c.name === 'uploadChunk')).toHaveLength(5);
    expect(await store.getState().sendMessage('')).toEqual({ ok: true });
    const sent = api.log.find((c) => c.name === 'sendMessage')!.input as { text: string; attachments: Array<{ name: string }> };
    expect(sent.attachments.map((a) => a.name)).toEqual(['notes.txt']);
    expect(store.getState().pendingAttachments[NEW_CHAT_KEY]).toBeUndefined();
  });

  it('a file added while the message is on its way stays for the next one; only the sent chips go', async () => {
    const { api, store } = backend(64);
    expect(await store.getState().newChat()).toEqual({ ok: true });
    const key = store.getState().currentSessionId!;
    await store.getState().addFiles([file('first.txt', 'sent with the message')]);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    api.override('sendMessage', async () => {
      await answered;
      return { itemId: 'u-1' };
    });
    const sending = store.getState().sendMessage('Here it is');
    await store.getState().addFiles([file('later.txt', 'added while sending')]);
    answer();
    expect(await sending).toEqual({ ok: true });
    expect(store.getState().pendingAttachments[key]?.map((p) => p.name)).toEqual(['later.txt']);
  });

  it('refuses an .exe and 30 images by name before any upload, keeping what was attached', async () => {
    const { api, store } = backend();
    await store.getState().addFiles([file('a.txt', 'a')]);
    await store.getState().addFiles([file('setup.exe', 'MZ')]);
    expect(store.getState().attachmentAlert).toMatch(/"setup.exe" is a .exe file, which Claude cannot read/);
    await store.getState().addFiles(Array.from({ length: 30 }, (_, i) => file(`shot-${i}.png`, 'x', 'image/png')));
    expect(store.getState().attachmentAlert).toMatch(/30 images are attached; at most 20/);
    expect(store.getState().pendingAttachments[NEW_CHAT_KEY]!.map((p) => p.name)).toEqual(['a.txt']);
    expect(api.log.filter((c) => c.name === 'startUpload')).toHaveLength(1);
    // Sending what was kept ends the refusal's alert with the message it was about.
    expect(await store.getState().sendMessage('here')).toEqual({ ok: true });
    expect(store.getState().attachmentAlert).toBeNull();
  });

  it('a file main refuses leaves no chip and an alert naming it; Remove takes a chip away', async () => {
    const { store } = backend();
    await store.getState().addFiles([file('keep.txt', 'k'), file('broken.png', 'x', 'image/png')]);
    expect(store.getState().attachmentAlert).toBe('"broken.png" is damaged and cannot be sent.');
    const chips = store.getState().pendingAttachments[NEW_CHAT_KEY]!;
    expect(chips.map((p) => p.name)).toEqual(['keep.txt']);
    store.getState().removeAttachment(chips[0]!.localId);
    expect(store.getState().pendingAttachments[NEW_CHAT_KEY]).toEqual([]);
  });
});
