import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasMkfifo, plantedFifos, type PlantedFifos } from '../../../test-support/main/planted-fifo';
import { SerialQueue } from './checkpoint-blobs';
import { CheckpointStore } from './checkpoints';

/**
 * A FIFO planted in the data folder's checkpoints where a plan's manifest should be: the store
 * starts that manifest empty at once (as for a damaged one), never waiting for a writer.
 */
let dir: string;
let fifos: PlantedFifos;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-checkpoint-fifo-'));
  fifos = plantedFifos();
});
afterEach(async () => {
  fifos.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasMkfifo)('a FIFO among the checkpoints', () => {
  it('is read as no manifest, without blocking; capture and rollback still work', async () => {
    const data = join(dir, 'data');
    const workspace = join(dir, 'ws');
    await mkdir(workspace);
    await writeFile(join(workspace, 'a.txt'), 'before');
    const store = new CheckpointStore(data, new SerialQueue());
    // Find where the manifest of plan p1 lives by making one, then plant a FIFO in its place.
    await store.capture(workspace, 's1', 'p1', 1, 'a.txt');
    const manifests = readdirSync(join(data, 'checkpoints', 's1')).filter((n) => n.endsWith('.json'));
    expect(manifests).toHaveLength(1);
    await rm(join(data, 'checkpoints', 's1', manifests[0]!));
    fifos.plant(join(data, 'checkpoints', 's1', manifests[0]!));

    await store.capture(workspace, 's1', 'p1', 2, 'a.txt');
    await writeFile(join(workspace, 'a.txt'), 'after');
    expect(await store.rollbackStep(workspace, 's1', 'p1', 2)).toEqual(['a.txt']);
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('before');
    expect(fifos.rescued()).toEqual([]);
  });
});
