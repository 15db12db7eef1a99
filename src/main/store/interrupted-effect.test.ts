import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { instancesPerTest, type Instance } from '../../../test-support/main/persistence-test-kit';
import { callKey, INTERRUPTED_EFFECT } from '../../shared/tool-results';
import { INTERRUPTED_RESULT } from './restore-chat';

/**
 * A kill in the middle of a changing call (issue 27): at the next start the call goes back to
 * Claude as "interrupted; its effect is unknown", its card is marked interrupted, and the chat
 * remembers the call (the same one again asks first); a read-only call cut off keeps the old words.
 */
const kit = instancesPerTest('waypoint-cut-', plansStructured);
const start = (): Promise<Instance> => kit.start();
const open = kit.open;

describe('a run killed mid-call', () => {
  it('answers a changing call with "effect unknown" and marks it Interrupted; a read-only call keeps "may not have run"', async () => {
    const first = await start();
    const { id } = first.chats.newSession();
    first.chats.renameSession(id, 'Cut');
    await first.close();
    open.splice(0);
    const path = join(kit.dir, 'sessions', id, 'events.jsonl');
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const seq = (JSON.parse(lines.at(-1)!) as { seq: number }).seq;
    const write = { type: 'tool_use', id: 'toolu_write', name: 'write_file', input: { path: 'a.txt', content: 'x' } };
    const read = { type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'a.txt' } };
    const card = (toolUseId: string, name: string, input: unknown, changes: boolean) => ({
      id: `item-${toolUseId}`, createdAt: '2026-01-01T00:00:00.000Z', kind: 'tool_call', toolUseId, name, summary: name, input, status: 'running', ...(changes ? { changes: true } : {}),
    });
    await appendFile(path, [
      { seq: seq + 1, t: 'x', type: 'run', state: { status: 'running', phase: 'requesting' } },
      { seq: seq + 2, t: 'x', type: 'history', from: 0, messages: [{ role: 'user', content: [{ type: 'text', text: 'Write a.txt' }] }, { role: 'assistant', content: [read, write] }] },
      { seq: seq + 3, t: 'x', type: 'run', state: { status: 'running', phase: 'tools' } },
      { seq: seq + 4, t: 'x', type: 'item', item: card('toolu_read', 'read_file', read.input, false) },
      { seq: seq + 5, t: 'x', type: 'item', item: card('toolu_write', 'write_file', write.input, true) },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');

    const back = await start();
    const { transcript, session } = back.chats.getSession(id);
    const cards = transcript.filter((i) => i.kind === 'tool_call');
    expect(cards).toEqual([
      expect.objectContaining({ toolUseId: 'toolu_read', status: 'error', result: INTERRUPTED_RESULT }),
      expect.objectContaining({ toolUseId: 'toolu_write', status: 'error', result: INTERRUPTED_EFFECT, interrupted: true }),
    ]);
    expect(cards[0]).not.toHaveProperty('interrupted');
    const results = back.chats.sessionState(id)!.history.at(-1)!.content as { tool_use_id: string; content: string; is_error: boolean }[];
    expect(results.map((r) => [r.tool_use_id, r.content, r.is_error])).toEqual(
      expect.arrayContaining([['toolu_write', INTERRUPTED_EFFECT, true], ['toolu_read', INTERRUPTED_RESULT, true]]),
    );
    expect(session.interruptedCalls).toEqual([callKey('write_file', write.input)]);
    await back.close();
    open.splice(0);

    // The repair was logged: the next start reads the same chat, the remembered call included.
    const again = await start();
    expect(again.chats.getSession(id).session.interruptedCalls).toEqual([callKey('write_file', { content: 'x', path: 'a.txt' })]);
  });
});
