// A WebSocket client of the web shell on its own thread (ws-observer.ts): it stamps each event
// frame as it arrives, on an event loop nothing else in the benchmark's process can hold up.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const arrivals = [];
const socket = new WebSocket(workerData.url, { origin: workerData.origin });
socket.on('open', () => parentPort.postMessage({ kind: 'open' }));
socket.on('error', (error) => parentPort.postMessage({ kind: 'error', message: String(error) }));
socket.on('message', (data) => {
  const t = performance.timeOrigin + performance.now();
  const frame = JSON.parse(String(data));
  if (frame.kind !== 'events') return;
  for (const { type, plan } of frame.events) arrivals.push({ t, type, ...(type === 'plan_updated' ? { version: plan.version } : {}) });
});
parentPort.on('message', (message) => {
  if (message === 'read') parentPort.postMessage({ kind: 'arrivals', arrivals });
  if (message === 'close') {
    socket.close();
    parentPort.close();
  }
});
