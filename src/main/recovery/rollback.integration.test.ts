import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import { testTool } from '../../../test-support/main/chat-test-setup';
import { fail } from '../tools/tool';
import { historyProblems } from '../../../test-support/main/history-check';
import { closeRecoveryChats, startRecoveryChat } from '../../../test-support/main/recovery-test-setup';

afterEach(closeRecoveryChats);

const migrate = testTool('apply_migration', async () => fail('transaction_failed', 'Transaction failed: constraint "users_email" violated; nothing was committed.'));

const scenario: Scenario = {
  name: 'rollback',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Migrate users', steps: [{ step_number: 1, description: 'Migrate' }, { step_number: 2, description: 'Verify' }] } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'changed' } }, { name: 'write_file', input: { path: 'sub/new.txt', content: 'created' } }] },
    { kind: 'tool_use', calls: [{ name: 'apply_migration', input: {} }] },
    { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'changed again' } }, { name: 'write_file', input: { path: 'b.txt', content: 'plan b' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'done' } }] },
    { kind: 'text', text: 'Migrated.' },
  ],
};

describe('checkpoints, rollback_and_retry and Undo plan (real files)', () => {
  it('rolls back the step’s files before the retry, then undoes the plan without clobbering outside edits', async () => {
    const chat = await startRecoveryChat(scenario, { files: { 'a.txt': 'original' }, extraTools: [migrate] });
    const { service, chats, session, recorder, server, workspace, recovery } = chat;
    service.sendMessage(session.id, 'Migrate the users table');
    await recorder.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'assistant' && e.item.text === 'Migrated.' && e.item.status === 'done');
    await recorder.idle(session.id, recorder.events.length - 3);

    // The failed transaction rolled step 1's files back before Claude retried.
    const afterFailure = (server.requests[4]!.body as { messages: MessageParam[] }).messages.at(-1)!.content as { content: string; is_error: boolean }[];
    expect(afterFailure[0]!.is_error).toBe(true);
    expect(afterFailure[0]!.content).toContain('rollback and retry');
    expect(afterFailure[0]!.content).toContain('Restored: a.txt, sub/new.txt.');
    const attempt = chats.getSession(session.id).plan!.steps[0]!.attempts[0]!;
    expect(attempt).toMatchObject({ tool: 'apply_migration', errorClass: 'transaction_failed', strategy: 'rollback_and_retry', outcome: 'succeeded' }); // the step completed after the retry
    expect(historyProblems((server.requests.at(-1)!.body as { messages: MessageParam[] }).messages)).toEqual([]);

    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('changed again');
    expect(existsSync(join(workspace, 'sub/new.txt'))).toBe(false);
    writeFileSync(join(workspace, 'b.txt'), 'edited by the user outside Waypoint');

    expect(await recovery.previewUndo(session.id, workspace)).toEqual([
      { path: 'a.txt', action: 'restore', changedOutside: false },
      { path: 'b.txt', action: 'delete', changedOutside: true },
    ]);
    expect(await recovery.undo(session.id, workspace, false)).toEqual({ restored: ['a.txt'], deleted: [], skipped: ['b.txt'] });
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('original');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('edited by the user outside Waypoint');

    expect(await recovery.undo(session.id, workspace, true)).toEqual({ restored: [], deleted: ['b.txt'], skipped: [] });
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
    expect(await recovery.previewUndo(session.id, workspace)).toEqual([]);
  });
});
