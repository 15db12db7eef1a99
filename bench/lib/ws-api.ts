import WebSocket from 'ws';
import type { CallInput, CallName, CallOutput, WaypointEvent, WsServerFrame } from '../../src/shared/contract';

/**
 * A second client of a running web shell over its WebSocket (the same contract the renderer
 * uses): benchmarks drive chats and read the engine's state with it.
 */
export interface WsApi {
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  events: WaypointEvent[];
  /** Node wall-clock time (timeOrigin + now) each event arrived, parallel to `events`. */
  arrivals: number[];
  waitForEvent(match: (e: WaypointEvent) => boolean, timeoutMs?: number, fromIndex?: number): Promise<WaypointEvent>;
  close(): void;
}

export async function connectWsApi(shellUrl: string): Promise<WsApi> {
  const url = new URL(shellUrl);
  const socket = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`, { origin: url.origin });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const events: WaypointEvent[] = [];
  const arrivals: number[] = [];
  const wakers = new Set<() => void>();
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as WsServerFrame;
    if (frame.kind === 'events') {
      const at = performance.timeOrigin + performance.now();
      for (const event of frame.events) {
        events.push(event);
        arrivals.push(at);
      }
      for (const wake of [...wakers]) wake();
      return;
    }
    const waiter = pending.get(frame.id);
    pending.delete(frame.id);
    if (!waiter) return;
    if (frame.result.ok) waiter.resolve(frame.result.value);
    else waiter.reject(new Error(`${frame.result.error.code}: ${frame.result.error.message}`));
  });
  return {
    events,
    arrivals,
    call(name, input) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, call: name, input }));
      return new Promise((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    },
    waitForEvent(match, timeoutMs = 60_000, fromIndex = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(fromIndex).find(match);
          if (!found) return false;
          wakers.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          wakers.delete(check);
          reject(new Error(`No matching event within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) wakers.add(check);
      });
    },
    close: () => socket.close(),
  };
}

/** Waits until a run in `sessionId` that started after event `fromIndex` is idle again. */
export function waitIdle(api: WsApi, sessionId: string, fromIndex: number, timeoutMs = 120_000): Promise<WaypointEvent> {
  return api.waitForEvent((e) => e.type === 'run_state' && e.sessionId === sessionId && e.state.status === 'idle', timeoutMs, fromIndex);
}
