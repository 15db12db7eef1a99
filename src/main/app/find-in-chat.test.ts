import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import { startBothShells, type BothShells } from '../../../test-support/main/both-shells';
import { type CallResult } from '../../shared/contract';

// Find in chat over the real services (a real chat answered by the scripted Messages API through
// the SDK), asked through the Electron bridge's forwarding half and the web shell's WebSocket:
// both go through the one call router, so both answer the same, and refuse bad input the same.

let api: ScriptedServer;
let shells: BothShells;
let sessionId: string;

const bothShells = (name: string, input: unknown) => shells.both(name, input);

/** Waits (without a fixed sleep) until the chat holds `count` finished replies. */
async function waitForReplies(count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const got = (await shells.services.router('getSession', { sessionId })) as CallResult<{ transcript: Array<{ kind: string; status?: string }> }>;
    const done = got.ok ? got.value.transcript.filter((i) => i.kind === 'assistant' && i.status === 'done').length : -1;
    if (done === count) return;
    if (Date.now() > deadline) throw new Error(`${done} replies finished, expected ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  api = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  shells = await startBothShells('waypoint-find-', api.url);
  const created = (await shells.services.router('newSession', {})) as CallResult<{ id: string }>;
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value.id;
  const messages = ['The Lighthouse stands on the cape.', 'Tell me about the weather.', 'And the lighthouse keeper?'];
  for (const [n, text] of messages.entries()) {
    const sent = await shells.services.router('sendMessage', { sessionId, text });
    expect(sent).toMatchObject({ ok: true });
    await waitForReplies(n + 1);
  }
});

afterAll(async () => {
  await shells?.close();
  await api?.close();
});

describe('findInChat through both shells', () => {
  it('finds every match of the whole chat in order, the same over IPC and the WebSocket', async () => {
    const result = (await bothShells('findInChat', { sessionId, query: 'LIGHTHOUSE' })) as CallResult<{
      matches: Array<{ itemId: string; snippet: string; occurrence: number }>;
      total: number;
      truncated: boolean;
    }>;
    if (!result.ok) throw new Error(result.error.message);
    // Each user message and its echoed reply ("You said: …"): 2 in the first turn, 2 in the third.
    expect(result.value.total).toBe(4);
    expect(result.value.truncated).toBe(false);
    const session = (await shells.services.router('getSession', { sessionId })) as CallResult<{ transcript: Array<{ id: string; kind: string }> }>;
    if (!session.ok) throw new Error(session.error.message);
    const order = session.value.transcript.map((i) => i.id);
    const positions = result.value.matches.map((m) => order.indexOf(m.itemId));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(result.value.matches[0]!.snippet).toBe('The Lighthouse stands on the cape.');
  });

  it('refuses bad input with a clear error on both shells, and the chat is unchanged', async () => {
    const before = await shells.services.router('getSession', { sessionId });
    const empty = await bothShells('findInChat', { sessionId, query: '   ' });
    expect(empty).toEqual({ ok: false, error: { code: 'invalid_input', message: 'query: Type something to find.' } });
    expect(await bothShells('findInChat', { sessionId, query: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/too long/) } });
    expect(await bothShells('findInChat', { sessionId, query: 'a', regex: true })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await bothShells('findInChat', { sessionId: 'no-such-chat', query: 'a' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await shells.services.router('getSession', { sessionId })).toEqual(before);
  });
});
