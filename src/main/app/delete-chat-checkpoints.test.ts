import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import { RERUN_FILE, RERUN_FILE_TEXT, rerunLoose } from '../../../test-support/scenarios/reruns';

/**
 * Deleting a chat deletes the copies of the user's files its turns' checkpoints kept
 * (`<dataDir>/checkpoints/<chat>/`): nothing of a deleted chat stays on disk. Whole app, real files.
 */
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('Delete chat', () => {
  it("removes the chat's file checkpoints; another chat's stay", async () => {
    app = await startTestApp(rerunLoose, { files: { [RERUN_FILE]: RERUN_FILE_TEXT }, settings: { autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 } });
    const send = async (text: string) => {
      const { id } = await app!.call('newSession', {});
      const from = app!.events.length;
      await app!.call('sendMessage', { sessionId: id, text });
      await app!.idle(id, from);
      return id;
    };
    // The scenario's turns go in order: the first chat writes NOTES.md, the second edits it and writes draft.txt.
    const first = await send('Write the notes');
    const second = await send('Now polish them');
    const folder = (id: string) => join(app!.dataDir, 'checkpoints', id);
    expect(readdirSync(join(folder(first), 'blobs')).length).toBeGreaterThan(0);
    expect(readdirSync(join(folder(second), 'blobs')).length).toBeGreaterThan(0);

    expect(await app.call('deleteSession', { sessionId: first })).toEqual({ deleted: true });
    expect(existsSync(folder(first))).toBe(false);
    expect(readdirSync(join(folder(second), 'blobs')).length).toBeGreaterThan(0);
    expect((await app.call('listSessions', {})).sessions.map((s) => s.id)).toEqual([second]);
  });
});
