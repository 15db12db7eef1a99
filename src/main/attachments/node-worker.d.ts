/** electron-vite builds a `?nodeWorker` import as its own chunk and gives a function that starts it as a Worker. */
declare module '*?nodeWorker' {
  import type { Worker, WorkerOptions } from 'node:worker_threads';
  export default function createWorker(options: WorkerOptions): Worker;
}
