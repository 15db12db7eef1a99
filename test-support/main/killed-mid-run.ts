/**
 * Test support: a chat whose writer was killed in the middle of a tool call. One turn is run for
 * real (persistence-test-kit), then records are appended to its log as a process that went on and
 * died would have left them: a run that asked Claude, got a tool_use back and was running it.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startInstance } from './persistence-test-kit';

/** The id of the open tool call the cut log ends on. */
export const CUT_TOOL_USE_ID = 'toolu_cut';

/** Runs one turn in `dataDir` (the scenario must answer 'Create a structural grid'), then cuts the chat mid tool call. */
export async function chatKilledMidToolCall(dataDir: string, baseURL: string): Promise<{ id: string; path: string }> {
  const first = await startInstance(dataDir, baseURL);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Create a structural grid');
  await first.idle(id);
  const historyLen = first.chats.sessionState(id)!.history.length;
  await first.close();
  const path = join(dataDir, 'sessions', id, 'events.jsonl');
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  const lastSeq = (JSON.parse(lines.at(-1)!) as { seq: number }).seq;
  const toolUse = { type: 'tool_use', id: CUT_TOOL_USE_ID, name: 'update_plan', input: { action: 'note', step_number: 1, note: 'x' } };
  await appendFile(path, [
    { seq: lastSeq + 1, t: 'x', type: 'run', state: { status: 'running', phase: 'requesting' } },
    { seq: lastSeq + 2, t: 'x', type: 'history', from: historyLen, messages: [{ role: 'user', content: [{ type: 'text', text: 'Go on' }] }, { role: 'assistant', content: [toolUse] }] },
    { seq: lastSeq + 3, t: 'x', type: 'run', state: { status: 'running', phase: 'tools' } },
  ].map((r) => `${JSON.stringify(r)}\n`).join(''));
  return { id, path };
}
