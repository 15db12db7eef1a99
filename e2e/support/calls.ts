import type { Page } from '@playwright/test';

/** One call the page made to the web shell, with what main answered. */
export interface SeenCall {
  call: string;
  input: unknown;
  /** The result's value (undefined until it arrives, or when the call was refused). */
  value?: unknown;
  error?: { code: string; message: string };
}

/**
 * Records every call the page makes over the web shell's WebSocket and main's answer, from now on
 * (also across reloads): what a person cannot see but a test of paging must, such as how many
 * items opening a chat sent.
 */
export function watchCalls(page: Page): () => SeenCall[] {
  const seen: SeenCall[] = [];
  page.on('websocket', (socket) => {
    const pending = new Map<number, SeenCall>();
    socket.on('framesent', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as { id: number; call: string; input: unknown };
      const call: SeenCall = { call: frame.call, input: frame.input };
      pending.set(frame.id, call);
      seen.push(call);
    });
    socket.on('framereceived', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as { kind: string; id?: number; result?: { ok: boolean; value?: unknown; error?: SeenCall['error'] } };
      if (frame.kind !== 'result' || frame.id === undefined) return;
      const call = pending.get(frame.id);
      pending.delete(frame.id);
      if (!call || !frame.result) return;
      if (frame.result.ok) call.value = frame.result.value;
      else call.error = frame.result.error;
    });
  });
  return () => seen;
}

/** The calls of one name seen so far. */
export function callsNamed(seen: () => SeenCall[], name: string): SeenCall[] {
  return seen().filter((c) => c.call === name);
}
