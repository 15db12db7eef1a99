import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../../../../test-support/scenarios/recovery-escalation';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { ToolCallItem } from '../../../shared/transcript';
import { closeRecoveryChats, startRecoveryChat } from '../../../../test-support/main/recovery-test-setup';
import { createWorkspaceTools } from '../../tools/workspace/index';
import { closeAll, messagesOf, startChat } from '../../../../test-support/main/chat-test-setup';

// A call whose dry run already says it cannot apply fails at once as an is_error result: the
// user is never asked to approve it (issue 12, item 12). Real SDK, scripted server, real files.

let ws: string;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'waypoint-precheck-'));
  await writeFile(join(ws, 'app.txt'), 'hello\nold line\n');
  await mkdir(join(ws, 'docs'));
});
afterEach(async () => {
  await closeAll();
  await closeRecoveryChats();
  await rm(ws, { recursive: true, force: true });
});

const scenario = (calls: { name: string; id: string; input: unknown }[]): Scenario => ({
  name: 'precheck',
  turns: [{ kind: 'tool_use', text: 'Working.', calls }, { kind: 'text', text: 'Done.' }],
});

async function run(calls: { name: string; id: string; input: unknown }[]) {
  const chat = await startChat(scenario(calls), { tools: createWorkspaceTools(ws), settings: { autoApproveEdits: false } });
  chat.service.sendMessage(chat.session.id, 'go');
  const cards = () => chat.chats.getSession(chat.session.id).transcript.filter((i): i is ToolCallItem => i.kind === 'tool_call');
  return { ...chat, cards };
}

describe('calls that cannot apply are not put to the user', () => {
  it('an edit whose old text is not in the file fails at once, and the run goes on', async () => {
    const { chats, recorder, session, server, cards } = await run([
      { name: 'edit_file', id: 'toolu_bad', input: { path: 'app.txt', old_text: 'no such line', new_text: 'x' } },
    ]);
    await recorder.idle(session.id);
    expect(recorder.ofType('approval_requested')).toEqual([]);
    const [result] = messagesOf(server, 1)[2]!.content as { type: string; tool_use_id: string; content: string; is_error?: boolean }[];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_bad', is_error: true });
    expect(result!.content).toMatch(/^old_text was not found in app\.txt\./);
    expect(cards()).toEqual([expect.objectContaining({ status: 'error', name: 'edit_file', errorKind: 'not_found' })]);
    expect(cards()[0]!.result).toMatch(/^old_text was not found in app\.txt\./);
    expect(await readFile(join(ws, 'app.txt'), 'utf8')).toBe('hello\nold line\n');
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Done.' });
  });

  it('ambiguous old text, a missing file and a folder as write target fail at once too; a good edit still asks', async () => {
    const { service, recorder, session, server } = await run([
      { name: 'edit_file', id: 'toolu_twice', input: { path: 'app.txt', old_text: 'l', new_text: 'L' } },
      { name: 'edit_file', id: 'toolu_missing', input: { path: 'nope.txt', old_text: 'a', new_text: 'b' } },
      { name: 'write_file', id: 'toolu_folder', input: { path: 'docs', content: 'x' } },
      { name: 'write_file', id: 'toolu_outside', input: { path: '../escape.txt', content: 'x' } },
      { name: 'edit_file', id: 'toolu_good', input: { path: 'app.txt', old_text: 'old line', new_text: 'new line' } },
    ]);
    const asked = await recorder.waitFor((e) => e.type === 'approval_requested');
    expect(asked).toMatchObject({ request: { toolUseId: 'toolu_good' } });
    service.answerApproval(session.id, (asked as { request: { id: string } }).request.id, 'approve');
    await recorder.idle(session.id, recorder.events.length);
    expect(recorder.ofType('approval_requested')).toHaveLength(1);
    const results = messagesOf(server, 1)[2]!.content as { tool_use_id: string; content: string; is_error?: boolean }[];
    const byId = Object.fromEntries(results.map((r) => [r.tool_use_id, r]));
    expect(byId.toolu_twice).toMatchObject({ is_error: true, content: expect.stringMatching(/occurs \d+ times in app\.txt/) });
    expect(byId.toolu_missing).toMatchObject({ is_error: true, content: expect.stringContaining('nope.txt does not exist') });
    expect(byId.toolu_folder).toMatchObject({ is_error: true, content: expect.stringContaining('docs is a folder') });
    expect(byId.toolu_outside).toMatchObject({ is_error: true });
    expect(byId.toolu_good!.is_error).toBeUndefined();
    expect(await readFile(join(ws, 'app.txt'), 'utf8')).toBe('hello\nnew line\n');
  });

  it('a step whose edit keeps missing escalates after its retries without one approval question', async () => {
    const chat = await startRecoveryChat(recoveryEscalationSkip, {
      files: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
      settings: { autoApproveEdits: false },
    });
    chat.service.sendMessage(chat.session.id, 'Tidy notes.txt');
    await chat.recorder.waitFor((e) => e.type === 'escalation_requested');
    expect(chat.recorder.ofType('approval_requested')).toEqual([]);
    expect(chat.plans.getPlan(chat.session.id)!.steps[0]!.attempts).toHaveLength(3);
  });
});
