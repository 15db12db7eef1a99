import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';
import { chatKilledMidToolCall, CUT_TOOL_USE_ID } from '../../../test-support/main/killed-mid-run';
import { apiHistoryProblem, unansweredToolUses } from '../chats/api-history';
import { lockPathFor, type LockOwner } from './chat-lock';
import { readLog } from './log-reader';
import { bootId, processStartTime } from './process-identity';

let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-claim-repair-'));
  server = await scripted(plansStructured);
});
afterEach(async () => {
  vi.useRealTimers();
  for (const i of open.splice(0)) await i.close();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Found by the kill-replay test: a shell started while the killed shell's lock still looked alive
 * (a zombie not yet reaped) loaded the chat as written elsewhere, so it was taken as logged, not
 * repaired. The dead writer was noticed only when the user acted (the claim took its stale lock
 * over), before the folder poll could repair the chat: the open tool call went to the API with a
 * user message after it and no tool_result ("messages.N: `tool_use` ids were found without
 * `tool_result` blocks immediately after").
 */
describe.runIf(process.platform === 'linux')('a chat loaded while another process wrote it, claimed after that process died mid-run', () => {
  it('is repaired by the claim, as a restart repairs it: its open tool call answered, Resume offered, the next request valid', async () => {
    // Another process went on with the chat and is in the middle of a tool call.
    const { id, path } = await chatKilledMidToolCall(dir, server.url);
    const writer = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(writer);
    const startTime = processStartTime(writer.pid!);
    const boot = bootId();
    const owner: LockOwner = { pid: writer.pid!, host: hostname(), token: 'other', holder: 'Waypoint web shell', since: new Date().toISOString(), ...(startTime ? { startTime } : {}), ...(boot ? { bootId: boot } : {}) };
    await writeFile(lockPathFor(join(dir, 'sessions'), id), JSON.stringify(owner));

    // The folder poll never runs here: the user's action comes first.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const back = await startInstance(dir, server.url, undefined, [], { follow: true, releaseIdleMs: 20 });
    open.push(back);
    vi.useRealTimers();
    expect(back.persistence.writerElsewhere(id)?.pid).toBe(writer.pid);

    writer.kill('SIGKILL');
    await new Promise((r) => writer.once('exit', r));
    // What the call router does before any call that changes the chat.
    back.persistence.claim(id);

    const state = back.chats.sessionState(id)!;
    expect(unansweredToolUses(state.history)).toEqual([]);
    expect(apiHistoryProblem(state.history)).toBeNull();
    expect(back.chats.getSession(id).session.interrupted).toBe(true);
    expect(back.chat.retryRun(id)).toEqual({ started: true });
    await back.idle(id);
    expect(server.invalid.map((r) => r.message)).toEqual([]);
    await back.persistence.flush();

    // The repair is logged once, and a restart finds the chat as this process left it.
    const read = readLog(path);
    expect(read.warnings).toEqual([]);
    const repairs = read.records.filter((r) => r.type === 'item' && r.item.kind === 'notice' && (r.item as { code?: string }).code === 'interrupted');
    expect(repairs).toHaveLength(1);
    const results = read.records.flatMap((r) => (r.type === 'history' ? r.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) : [])).filter((b) => b.type === 'tool_result' && b.tool_use_id === CUT_TOOL_USE_ID);
    expect(results).toHaveLength(1);
  }, 30_000);
});
