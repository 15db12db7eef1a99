import { Worker } from 'node:worker_threads';

export interface Arrival {
  /** Wall clock (timeOrigin + now, same as wallNow()) when the frame arrived. */
  t: number;
  type: string;
  /** plan_updated: the plan's version. */
  version?: number;
}

export interface EventObserver {
  /** Every event frame so far, in order. */
  arrivals(): Promise<Arrival[]>;
  close(): Promise<void>;
}

/**
 * When each event leaves main, seen by a second WebSocket client of the web shell. It runs on a
 * worker thread: on the benchmark's own thread its stamps waited behind the scripted server
 * writing the next reply and Playwright's traffic, so "main's part" included the benchmark's.
 */
export async function observeEvents(shellUrl: string): Promise<EventObserver> {
  const url = new URL(shellUrl);
  const worker = new Worker(new URL('./ws-observer-worker.mjs', import.meta.url), {
    workerData: { url: `ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`, origin: url.origin },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', (message: { kind: string; message?: string }) => (message.kind === 'open' ? resolve() : reject(new Error(message.message))));
    worker.once('error', reject);
  });
  return {
    arrivals: () =>
      new Promise((resolve) => {
        const onMessage = (message: { kind: string; arrivals?: Arrival[] }) => {
          if (message.kind !== 'arrivals') return;
          worker.off('message', onMessage);
          resolve(message.arrivals ?? []);
        };
        worker.on('message', onMessage);
        worker.postMessage('read');
      }),
    close: async () => {
      worker.postMessage('close');
      await worker.terminate();
    },
  };
}
