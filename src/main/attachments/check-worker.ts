import { parentPort } from 'node:worker_threads';
import { AttachmentRefusal } from './attachment-refusal';
import { CheckReply, CheckRequest } from './check-messages';
import { prepareFile, prepareImageFile } from './prepare-file';

/**
 * The worker thread that checks one attached file (checks-in-worker.ts starts one per file, with
 * a time and a memory limit): the PDF parse and the image decoding happen here, never on main's
 * event loop, and whatever they allocate goes when the thread ends.
 */

async function check(raw: unknown): Promise<CheckReply> {
  const request = CheckRequest.safeParse(raw);
  if (!request.success) return { outcome: 'failed', message: `The check worker got a request it cannot read (${request.error.message.slice(0, 200)}).` };
  const { kind, name, bytes: received } = request.data;
  const bytes = Buffer.from(received.buffer, received.byteOffset, received.length);
  try {
    const prepared = kind === 'image' ? await prepareImageFile(name, bytes) : await prepareFile(name, bytes);
    return { outcome: 'prepared', meta: prepared.meta, bytes: prepared.bytes === bytes ? null : new Uint8Array(prepared.bytes) };
  } catch (error) {
    if (error instanceof AttachmentRefusal) return { outcome: 'refused', message: error.message };
    return { outcome: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

const port = parentPort;
if (!port) throw new Error('check-worker.ts runs only as a worker thread.');
port.once('message', (raw: unknown) => {
  void check(raw).then((reply) => port.postMessage(reply));
});
