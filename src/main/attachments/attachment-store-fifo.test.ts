import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasMkfifo, plantedFifos, type PlantedFifos } from '../../../test-support/main/planted-fifo';
import { AttachmentStore } from './attachment-store';

/**
 * A FIFO planted in attachments/ where a stored file or its description should be: reading it
 * gives "no such file" at once (a run's request, an export and an upload go on), never a wait
 * for a writer that never comes.
 */
let dir: string;
let fifos: PlantedFifos;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-attach-fifo-'));
  fifos = plantedFifos();
});
afterEach(async () => {
  fifos.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasMkfifo)('a FIFO in the attachment store', () => {
  it('is treated as missing without blocking, and a new upload of those bytes replaces it', async () => {
    const store = new AttachmentStore(join(dir, 'attachments'));
    const bytes = Buffer.from('hello, attachments');
    const id = AttachmentStore.idOf(bytes);
    fifos.plant(store.path(id));
    fifos.plant(`${store.path(id)}.json`);

    expect(await store.read(id)).toBeNull();
    expect(await store.base64(id)).toBeNull();
    expect(await new AttachmentStore(store.dir).meta(id)).toBeNull();
    await store.put(bytes, { kind: 'text', mediaType: 'text/plain', size: bytes.length });
    expect(await store.read(id)).toEqual(bytes);
    expect(fifos.rescued()).toEqual([]);
  });
});
