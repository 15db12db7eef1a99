import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { testTool } from '../../../../test-support/main/chat-test-setup';
import { startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { SEED_GRID_PLAN } from '../../../../test-support/main/seed-tool-calls';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import { byAgent, delegate, requestsOf, resultOf } from '../../../../test-support/main/sub-agent-scripts';
import { stoppedResult } from '../../../shared/subagent-results';
import type { Settings } from '../../../shared/settings';
import { ok, type ToolDefinition } from '../../tools/tool';

let root = '';
let server: ScriptedServer | null = null;
const instances: Instance[] = [];

afterEach(async () => {
  for (const instance of instances.splice(0)) await instance.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The chat's pending approval once it is asked (within 15 s), or undefined. */
async function approvalAsked(instance: Instance, id: string) {
  let asked = instance.chats.getSession(id).pendingApproval;
  for (let i = 0; !asked && i < 300; i++) {
    await new Promise((r) => setTimeout(r, 50));
    asked = instance.chats.getSession(id).pendingApproval;
  }
  return asked;
}

/** An instance gone as a quit leaves it: its log closed, its runs and plans dropped. */
async function quit(instance: Instance): Promise<void> {
  await instance.persistence.dispose();
  instance.chat.dispose();
  instance.plans.dispose();
}

type Body = { messages: { role: string; content: string | { type: string; text?: string; tool_use_id?: string; content?: string; is_error?: boolean }[] }[] };
/** The tool results a request to Claude carries, in order. */
const resultsOf = (body: Body) => body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
const firstText = (body: Body) => {
  const first = body.messages[0]!.content;
  return typeof first === 'string' ? first : (first.find((b) => b.type === 'text')?.text ?? '');
};

/** A tool that always asks first; its runs are counted (none: it never ran). */
const pokeTool = (runs: string[]) => ({ ...testTool('poke', async () => (runs.push('poke'), ok('poked'))), needsApproval: () => true });

/** A fresh data folder, and a scripted server that answers each agent from its own script. */
async function scriptedWorld(name: string, scripts: Record<string, ScriptedTurn[]>): Promise<ScriptedServer> {
  root = await mkdtemp(join(tmpdir(), `waypoint-${name}-`));
  server = await startScriptedServer({ scenario: { name, turns: [] }, respond: byAgent(scripts) });
  return server;
}

/**
 * The restart's set-up: "Build the grid" is sent in a first instance, a sub-agent asks the poke's
 * approval, the instance quits, and a second one opens the same folder.
 */
async function askedThenRestarted(name: string, scripts: Record<string, ScriptedTurn[]>, settings: Partial<Settings> = {}) {
  const server = await scriptedWorld(name, scripts);
  const runs: string[] = [];
  const source = settingsSource(settings);
  const first = await startInstance(root, server.url, source, [pokeTool(runs)]);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Build the grid');
  const asked = await approvalAsked(first, id);
  await quit(first);
  const sent = server.requests.length;
  const second = await startInstance(root, server.url, source, [pokeTool(runs)]);
  instances.push(second);
  const agentId = (title: string) => second.chats.getSession(id).subagents!.find((a) => a.title === title)!.id;
  return { second, id, asked: asked!, sent, runs, agentId, server };
}

/** A second instance over the same folder, where the sub-agent `asker` still asks (request `askedId`). */
async function reopenedAsking(settings: ReturnType<typeof settingsSource>, tools: ToolDefinition[], id: string, askedId: string, asker = 'Lay out the grid lines') {
  const second = await startInstance(root, server!.url, settings, tools);
  instances.push(second);
  const opened = second.chats.getSession(id);
  expect(opened.pendingApproval).toMatchObject({ id: askedId, agent: { title: asker } });
  return { second, opened };
}

/** What a live "Stop sub-agent" answers its delegate call with: the stop, its plan's state, its last words. */
const stoppedWith = (lastWords: string) => `${stoppedResult(null)}\n\nIts last words: ${lastWords}`;

/** `who`'s last request carries that call's result as a live stop gives it: its words, not an error. */
function expectStoppedResult(server: ScriptedServer, who: string, call: string, lastWords: string): void {
  const result = resultOf(requestsOf(server, who).at(-1)!, call);
  expect(result).toEqual(expect.objectContaining({ type: 'tool_result', content: stoppedWith(lastWords) }));
  expect(result?.is_error).toBeUndefined();
}

/** "Stop sub-agent" on the titled one after the restart: accepted, its question closed at once; then the chat's run to its end. */
async function stopAfterRestart(second: Instance, id: string, agentId: string): Promise<void> {
  expect(second.chat.stopSubAgent(id, agentId)).toEqual({ stopped: true });
  expect(second.chats.getSession(id).pendingApproval ?? null).toBeNull();
  await second.idle(id, 30_000);
}

it('a sub-agent working when the app died shows "Interrupted", is never rerun, and its result tells the parent what it had done', async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-subagent-restart-'));
  const scripts: Record<string, ScriptedTurn[]> = {
    'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_sub', input: { task: 'Lay out the grid lines' } }] }, { kind: 'text', text: 'never reached' }],
    'Lay out': [
      { kind: 'tool_use', calls: [{ name: 'create_plan', input: SEED_GRID_PLAN }] },
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'A, B, C placed' } }] },
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }] },
      { kind: 'tool_use', calls: [{ name: 'wait', input: {} }] },
      { kind: 'text', text: 'never reached either' },
    ],
  };
  const used = new Map<string, number>();
  let afterRestart = false;
  server = await startScriptedServer({
    scenario: { name: 'restart', turns: [] },
    respond: (raw) => {
      const body = raw as unknown as Body;
      const key = Object.keys(scripts).find((k) => firstText(body).startsWith(k));
      if (afterRestart || !key) return { kind: 'text', text: 'Going on from what the sub-agent left.' };
      const at = used.get(key) ?? 0;
      used.set(key, at + 1);
      return scripts[key]![at];
    },
  });
  let waiting: () => void = () => undefined;
  const reached = new Promise<void>((r) => (waiting = r));
  // The sub-agent's call that never ends: the app dies while it runs.
  const wait = testTool('wait', () => (waiting(), new Promise(() => undefined)));
  const settings = settingsSource();
  const first = await startInstance(root, server.url, settings, [wait]);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Build the grid');
  await reached;
  const working = first.chats.getSession(id).subagents!;
  expect(working.map((a) => [a.title, a.status])).toEqual([['Lay out the grid lines', 'working']]);
  // The log is all that is left of it: written, then the process is gone (its later events unwritten).
  await quit(first);
  const childRequests = server.requests.length;

  afterRestart = true;
  const second = await startInstance(root, server.url, settings, [testTool('wait', async () => ok('x'))]);
  instances.push(second);
  const opened = second.chats.getSession(id);
  const agent = opened.subagents!.find((a) => a.title === 'Lay out the grid lines')!;
  expect(agent.status).toBe('interrupted');
  expect(agent.plan?.steps.map((s) => s.status)).toEqual(['completed', 'in_progress', 'pending']);
  // Nothing ran by itself after the restart.
  await new Promise((r) => setTimeout(r, 300));
  expect(server.requests.length).toBe(childRequests);

  // The parent goes on when the user says so: its delegate call's result says what happened.
  second.chat.sendMessage(id, 'Go on');
  await second.idle(id);
  const sent = server.requests.slice(childRequests).map((r) => r.body as Body);
  expect(sent.map(firstText)).toEqual(['Build the grid']);
  const result = resultsOf(sent[0]!).find((b) => b.tool_use_id === 'toolu_sub')!;
  expect(result.is_error).toBe(true);
  expect(result.content).toMatch(/^Interrupted: Waypoint was closed while this sub-agent was working/);
  expect(result.content).toContain('1/3 steps done');
  expect(result.content).toContain("In progress: 2. Create horizontal grid lines 1, 2, 3 at 25' spacing.");

  // A second restart reads the repair from the log: still interrupted, nothing repeated.
  await second.close();
  instances.splice(0);
  const third = await startInstance(root, server.url, settings, []);
  instances.push(third);
  expect(third.chats.getSession(id).subagents!.map((a) => a.status)).toEqual(['interrupted']);
}, 60_000);

it('a sub-agent waiting for an approval when the app died still asks after the restart; Approve runs it on to its end, and the chat on with its result', async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-subagent-asking-restart-'));
  const scripts: Record<string, ScriptedTurn[]> = {
    'Build the grid': [
      { kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_sub', input: { task: 'Lay out the grid lines' } }, { name: 'delegate', id: 'toolu_other', input: { task: 'Measure the bays' } }] },
      { kind: 'text', text: 'The grid is laid out.' },
    ],
    'Lay out': [{ kind: 'tool_use', text: 'Poking first.', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }, { kind: 'text', text: 'Lines laid out after the poke.' }],
    // The sibling is still working when the app dies: it is interrupted, never rerun.
    Measure: [{ kind: 'tool_use', calls: [{ name: 'wait', id: 'toolu_wait', input: {} }] }],
  };
  const used = new Map<string, number>();
  server = await startScriptedServer({
    scenario: { name: 'asking-restart', turns: [] },
    respond: (raw) => {
      const body = raw as unknown as Body;
      const key = Object.keys(scripts).find((k) => firstText(body).startsWith(k));
      if (!key) return { kind: 'text', text: 'nobody scripted' };
      const at = used.get(key) ?? 0;
      used.set(key, at + 1);
      return scripts[key]![at] ?? { kind: 'text', text: 'never reached' };
    },
  });
  const runs: string[] = [];
  const poke = { ...testTool('poke', async () => (runs.push('poke'), ok('poked'))), needsApproval: () => true };
  let waiting: () => void = () => undefined;
  const reached = new Promise<void>((r) => (waiting = r));
  const wait = testTool('wait', () => (waiting(), new Promise(() => undefined)));
  const settings = settingsSource();
  const first = await startInstance(root, server.url, settings, [poke, wait]);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Build the grid');
  await reached;
  const asked = await approvalAsked(first, id);
  expect(asked?.agent?.title).toBe('Lay out the grid lines');
  await quit(first);
  const sent = server.requests.length;

  const { second, opened } = await reopenedAsking(settings, [poke, testTool('wait', async () => ok('x'))], id, asked!.id);
  expect(opened.subagents!.map((a) => [a.title, a.status])).toEqual([
    ['Lay out the grid lines', 'working'],
    ['Measure the bays', 'interrupted'],
  ]);
  // Its card still shows what it did before the restart.
  expect(opened.subagents![0]!.transcript?.map((l) => l.text)).toEqual(['Poking first.', 'poke {}']);
  await new Promise((r) => setTimeout(r, 300));
  expect(server.requests.length).toBe(sent);

  expect(second.chat.answerApproval(id, asked!.id, 'approve')).toEqual({ accepted: true });
  await second.idle(id, 30_000);
  expect(runs).toEqual(['poke']);
  const after = server.requests.slice(sent).map((r) => r.body as Body);
  expect(after.map(firstText)).toEqual(['Lay out the grid lines', 'Build the grid']);
  const poked = resultsOf(after[0]!).find((b) => b.tool_use_id === 'toolu_poke');
  expect(poked).toMatchObject({ content: 'poked' });
  const results = resultsOf(after[1]!);
  expect(results.find((b) => b.tool_use_id === 'toolu_sub')).toMatchObject({ content: 'Lines laid out after the poke.' });
  expect(results.find((b) => b.tool_use_id === 'toolu_other')?.content).toMatch(/^Interrupted/);
  const done = second.chats.getSession(id);
  expect(done.subagents!.map((a) => a.status)).toEqual(['done', 'interrupted']);
  // Its card's lines go on where they stopped: the approved call's line ends done, not twice.
  expect(done.subagents![0]!.transcript?.map((l) => [l.text, l.status])).toEqual([
    ['Poking first.', undefined],
    ['poke {}', 'done'],
    ['Lines laid out after the poke.', undefined],
  ]);
  expect(done.pendingApproval ?? null).toBeNull();
  expect(done.transcript.some((item) => item.kind === 'assistant' && item.text === 'The grid is laid out.')).toBe(true);
}, 90_000);

it('Stop after a restart while a sub-agent waits: its question closes, it shows Stopped, its delegate call says so, and nothing is sent', async () => {
  const { second, id, asked, sent, runs, server } = await askedThenRestarted('subagent-stop-restart', {
    'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_sub', input: { task: 'Lay out the grid lines' } }] }],
    'Lay out': [{ kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }],
  });
  expect(second.chats.getSession(id).pendingApproval?.id).toBe(asked.id);
  expect(second.chat.stop(id)).toEqual({ stopped: true });
  const stopped = second.chats.getSession(id);
  expect(stopped.pendingApproval ?? null).toBeNull();
  expect(stopped.subagents!.map((a) => a.status)).toEqual(['stopped']);
  expect(second.chat.answerApproval(id, asked.id, 'approve')).toEqual({ accepted: false });
  await new Promise((r) => setTimeout(r, 300));
  expect(server.requests.length).toBe(sent);
  expect(runs).toEqual([]);
}, 60_000);

it('a sub-agent at depth 2 waiting for an approval when the app died still asks after the restart; Approve runs it, then its parent sub-agent, then the chat', async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-subagent-deep-restart-'));
  const scripts: Record<string, ScriptedTurn[]> = {
    'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_top', input: { task: 'Lay out the grid lines' } }] }, { kind: 'text', text: 'The grid is laid out.' }],
    'Lay out': [
      { kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_deep', input: { task: 'Place the columns' } }, { name: 'delegate', id: 'toolu_sib', input: { task: 'Measure the bays' } }] },
      { kind: 'text', text: 'Lines laid out around the columns.' },
    ],
    Place: [{ kind: 'tool_use', text: 'Poking first.', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }, { kind: 'text', text: 'Columns placed after the poke.' }],
    // Its sibling at depth 2 is still working when the app dies: it is interrupted, never rerun.
    Measure: [{ kind: 'tool_use', calls: [{ name: 'wait', id: 'toolu_wait', input: {} }] }],
  };
  const used = new Map<string, number>();
  server = await startScriptedServer({
    scenario: { name: 'deep-asking-restart', turns: [] },
    respond: (raw) => {
      const key = Object.keys(scripts).find((k) => firstText(raw as unknown as Body).startsWith(k));
      if (!key) return { kind: 'text', text: 'nobody scripted' };
      const at = used.get(key) ?? 0;
      used.set(key, at + 1);
      return scripts[key]![at] ?? { kind: 'text', text: 'never reached' };
    },
  });
  const runs: string[] = [];
  const poke = { ...testTool('poke', async () => (runs.push('poke'), ok('poked'))), needsApproval: () => true };
  let waiting: () => void = () => undefined;
  const reached = new Promise<void>((r) => (waiting = r));
  const wait = testTool('wait', () => (waiting(), new Promise(() => undefined)));
  const settings = settingsSource({ subAgentDepth: 2 });
  const first = await startInstance(root, server.url, settings, [poke, wait]);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Build the grid');
  await reached;
  const asked = await approvalAsked(first, id);
  expect(asked?.agent).toMatchObject({ title: 'Place the columns', depth: 2 });
  await quit(first);
  const sent = server.requests.length;

  const second = await startInstance(root, server.url, settings, [poke, testTool('wait', async () => ok('x'))]);
  instances.push(second);
  const opened = second.chats.getSession(id);
  expect(opened.pendingApproval).toMatchObject({ id: asked!.id, agent: { title: 'Place the columns', depth: 2 } });
  expect(opened.subagents!.map((a) => [a.title, a.status])).toEqual([
    ['Lay out the grid lines', 'working'],
    ['Place the columns', 'working'],
    ['Measure the bays', 'interrupted'],
  ]);
  await new Promise((r) => setTimeout(r, 300));
  expect(server.requests.length).toBe(sent);

  expect(second.chat.answerApproval(id, asked!.id, 'approve')).toEqual({ accepted: true });
  await second.idle(id, 30_000);
  expect(runs).toEqual(['poke']);
  const after = server.requests.slice(sent).map((r) => r.body as Body);
  expect(after.map(firstText)).toEqual(['Place the columns', 'Lay out the grid lines', 'Build the grid']);
  expect(resultsOf(after[0]!).find((b) => b.tool_use_id === 'toolu_poke')).toMatchObject({ content: 'poked' });
  const parentResults = resultsOf(after[1]!);
  expect(parentResults.find((b) => b.tool_use_id === 'toolu_deep')).toMatchObject({ content: 'Columns placed after the poke.' });
  expect(parentResults.find((b) => b.tool_use_id === 'toolu_sib')?.content).toMatch(/^Interrupted/);
  expect(resultsOf(after[2]!).find((b) => b.tool_use_id === 'toolu_top')).toMatchObject({ content: 'Lines laid out around the columns.' });
  const done = second.chats.getSession(id);
  expect(done.subagents!.map((a) => [a.title, a.status])).toEqual([
    ['Lay out the grid lines', 'done'],
    ['Place the columns', 'done'],
    ['Measure the bays', 'interrupted'],
  ]);
  // The parent's card: its delegate call's line ends done, once.
  expect(done.subagents![0]!.transcript?.filter((l) => l.text.includes('Place the columns')).map((l) => l.status)).toEqual(['done']);
  expect(done.subagents![1]!.transcript?.map((l) => [l.text, l.status])).toEqual([
    ['Poking first.', undefined],
    ['poke {}', 'done'],
    ['Columns placed after the poke.', undefined],
  ]);
  expect(done.pendingApproval ?? null).toBeNull();
  expect(done.transcript.some((item) => item.kind === 'assistant' && item.text === 'The grid is laid out.')).toBe(true);
}, 90_000);

it('Stop after a restart while a sub-agent at depth 2 waits: it and the sub-agent above it show Stopped, the chat\'s delegate call says so, and nothing is sent', async () => {
  const { second, id, asked, sent, runs, server } = await askedThenRestarted(
    'subagent-deep-stop-restart',
    {
      'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_top', input: { task: 'Lay out the grid lines' } }] }],
      'Lay out': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_deep', input: { task: 'Place the columns' } }] }],
      Place: [{ kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }],
    },
    { subAgentDepth: 2 },
  );
  expect(second.chats.getSession(id).pendingApproval?.id).toBe(asked.id);
  expect(second.chat.stop(id)).toEqual({ stopped: true });
  const stopped = second.chats.getSession(id);
  expect(stopped.pendingApproval ?? null).toBeNull();
  expect(stopped.subagents!.map((a) => [a.title, a.status])).toEqual([
    ['Lay out the grid lines', 'stopped'],
    ['Place the columns', 'stopped'],
  ]);
  expect(stopped.transcript.find((item) => item.kind === 'tool_call' && item.toolUseId === 'toolu_top')).toMatchObject({ status: 'done', result: expect.stringMatching(/stopped/i) });
  expect(second.chat.answerApproval(id, asked.id, 'approve')).toEqual({ accepted: false });
  await new Promise((r) => setTimeout(r, 300));
  expect(server.requests.length).toBe(sent);
  expect(runs).toEqual([]);
}, 60_000);

it('"Stop sub-agent" on a sub-agent waiting since before a restart stops it as a live Stop does: its question closes, it shows Stopped, and the chat runs on with its stopped result', async () => {
  const { second, id, asked, sent, runs, agentId, server } = await askedThenRestarted('subagent-stop-one-restart', {
    'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_sub', input: { task: 'Lay out the grid lines' } }] }, { kind: 'text', text: 'Going on without the grid.' }],
    'Lay out': [{ kind: 'tool_use', text: 'Poking first.', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }],
  });
  // The Stop is the question's answer: it is closed at once, and cannot be answered after.
  await stopAfterRestart(second, id, agentId('Lay out the grid lines'));
  expect(second.chat.answerApproval(id, asked.id, 'approve')).toEqual({ accepted: false });
  expect(runs).toEqual([]);
  expect(server.requests.slice(sent).map((r) => firstText(r.body as Body))).toEqual(['Build the grid']);
  expectStoppedResult(server, 'Build the grid', 'toolu_sub', 'Poking first.');
  const done = second.chats.getSession(id);
  expect(done.subagents!.map((a) => [a.title, a.status, a.result])).toEqual([['Lay out the grid lines', 'stopped', stoppedWith('Poking first.')]]);
  // Its held call's line says it was stopped, once; the chat's delegate card shows the result.
  expect(done.subagents![0]!.transcript?.map((l) => [l.text, l.status])).toEqual([
    ['Poking first.', undefined],
    ['poke {}', 'error'],
  ]);
  expect(done.transcript.find((item) => item.kind === 'tool_call' && item.toolUseId === 'toolu_sub')).toMatchObject({ status: 'done', result: stoppedWith('Poking first.') });
  expect(done.transcript.some((item) => item.kind === 'assistant' && item.text === 'Going on without the grid.')).toBe(true);
  expect(second.chat.stopSubAgent(id, agentId('Lay out the grid lines'))).toEqual({ stopped: false, reason: 'That sub-agent is not working now.' });
}, 60_000);

/** A sub-agent at depth 2 asks; its parent sub-agent goes on after it, then the chat. */
const deepScripts = (): Record<string, ScriptedTurn[]> => ({
  'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_top', input: { task: 'Lay out the grid lines' } }] }, { kind: 'text', text: 'The grid is laid out.' }],
  'Lay out': [
    { kind: 'tool_use', text: 'Columns first.', calls: [{ name: 'delegate', id: 'toolu_deep', input: { task: 'Place the columns' } }] },
    { kind: 'text', text: 'Lines laid out without the columns.' },
  ],
  Place: [{ kind: 'tool_use', text: 'Poking first.', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }],
});

it.each([
  {
    which: 'the waiting sub-agent: it shows Stopped, its parent sub-agent runs on with its stopped result, then the chat',
    stop: 'Place the columns',
    sentAfter: ['Lay out the grid lines', 'Build the grid'],
    stopped: { who: 'Lay out', call: 'toolu_deep', lastWords: 'Poking first.' },
    chatHears: 'Lines laid out without the columns.',
    statuses: ['done', 'stopped'],
  },
  {
    which: "the waiting sub-agent's parent: both show Stopped, the chat runs on with the parent's stopped result",
    stop: 'Lay out the grid lines',
    sentAfter: ['Build the grid'],
    stopped: { who: 'Build the grid', call: 'toolu_top', lastWords: 'Columns first.' },
    chatHears: stoppedWith('Columns first.'),
    statuses: ['stopped', 'stopped'],
  },
])('"Stop sub-agent" at depth 2 after a restart, on $which', async ({ stop, sentAfter, stopped, chatHears, statuses }) => {
  const { second, id, sent, runs, agentId, server } = await askedThenRestarted('subagent-stop-deep-restart', deepScripts(), { subAgentDepth: 2 });
  await stopAfterRestart(second, id, agentId(stop));
  expect(runs).toEqual([]);
  expect(server.requests.slice(sent).map((r) => firstText(r.body as Body))).toEqual(sentAfter);
  expectStoppedResult(server, stopped.who, stopped.call, stopped.lastWords);
  expect(resultOf(requestsOf(server, 'Build the grid').at(-1)!, 'toolu_top')).toMatchObject({ content: chatHears });
  const done = second.chats.getSession(id);
  expect(done.subagents!.map((a) => [a.title, a.status])).toEqual([
    ['Lay out the grid lines', statuses[0]],
    ['Place the columns', statuses[1]],
  ]);
  expect(done.transcript.some((item) => item.kind === 'assistant' && item.text === 'The grid is laid out.')).toBe(true);
}, 60_000);

/**
 * A reply around a sub-agent's question (`ask`: the delegate whose sub-agent asks): a note that
 * ends first; a sibling that ends only after the question was asked, so its result reaches the
 * log by a later write of the waiting record; one still working when the app quits (interrupted,
 * never rerun). `siblings`: their scripts.
 */
function aroundAQuestion(ask: { id: string; task: string }) {
  const reply: ScriptedTurn = {
    kind: 'tool_use',
    calls: [{ name: 'note', id: 'toolu_note', input: {} }, delegate(ask.id, ask.task), delegate('toolu_count', 'Count the bays'), delegate('toolu_measure', 'Measure the bays')],
  };
  const siblings: Record<string, ScriptedTurn[]> = {
    Count: [{ kind: 'tool_use', calls: [{ name: 'hold', id: 'toolu_hold', input: {} }] }, { kind: 'text', text: 'Four bays.' }],
    Measure: [{ kind: 'tool_use', calls: [{ name: 'wait', id: 'toolu_wait', input: {} }] }],
  };
  return { reply, siblings };
}

/** The tools of that reply (and poke); `countEnds`: once the question is out, the counting sibling ends and the log has its result. */
function toolsAroundAQuestion(runs: string[]) {
  const notes: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  let reached: () => void = () => undefined;
  const waiting = new Promise<void>((r) => (reached = r));
  const note = testTool('note', async () => (notes.push('noted'), ok('noted: 4 bays of 25 ft')));
  const tools = [pokeTool(runs), note, testTool('hold', async () => (await held, ok('held'))), testTool('wait', () => (reached(), new Promise(() => undefined)))];
  const countEnds = async (first: Instance) => {
    await waiting;
    release();
    const kept = () => first.events.some((e) => e.type === 'subagent_waiting' && JSON.stringify(e.waiting).includes('Four bays.'));
    for (let i = 0; i < 300 && !kept(); i++) await new Promise((r) => setTimeout(r, 50));
  };
  return { tools, note, notes, countEnds };
}

it('a parent sub-agent resumed after a restart gets the real results of its reply\'s calls that had ended before it (a read, a sibling sub-agent), and "Interrupted" for one still running', async () => {
  const around = aroundAQuestion({ id: 'toolu_deep', task: 'Place the columns' });
  const server = await scriptedWorld('subagent-finished-restart', {
    'Build the grid': [{ kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_top', input: { task: 'Lay out the grid lines' } }] }, { kind: 'text', text: 'The grid is laid out.' }],
    'Lay out': [around.reply, { kind: 'text', text: 'Lines laid out.' }],
    Place: [{ kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }, { kind: 'text', text: 'Columns placed after the poke.' }],
    ...around.siblings,
  });
  const runs: string[] = [];
  const { tools, countEnds } = toolsAroundAQuestion(runs);
  const settings = settingsSource({ subAgentDepth: 2 });
  const first = await startInstance(root, server.url, settings, tools);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Build the grid');
  const asked = await approvalAsked(first, id);
  await countEnds(first);
  await quit(first);
  const sent = server.requests.length;

  const second = await startInstance(root, server.url, settings, [pokeTool(runs)]);
  instances.push(second);
  expect(second.chats.getSession(id).subagents!.map((a) => [a.title, a.status])).toEqual([
    ['Lay out the grid lines', 'working'],
    ['Place the columns', 'working'],
    ['Count the bays', 'done'],
    ['Measure the bays', 'interrupted'],
  ]);
  expect(second.chat.answerApproval(id, asked!.id, 'approve')).toEqual({ accepted: true });
  await second.idle(id, 30_000);
  expect(server.requests.slice(sent).map((r) => firstText(r.body as Body))).toEqual(['Place the columns', 'Lay out the grid lines', 'Build the grid']);
  const parent = requestsOf(server, 'Lay out').at(-1)!;
  expect(resultOf(parent, 'toolu_note')).toMatchObject({ content: 'noted: 4 bays of 25 ft' });
  expect(resultOf(parent, 'toolu_note')?.is_error).toBeUndefined();
  expect(resultOf(parent, 'toolu_deep')).toMatchObject({ content: 'Columns placed after the poke.' });
  expect(resultOf(parent, 'toolu_count')).toMatchObject({ content: 'Four bays.' });
  expect(resultOf(parent, 'toolu_measure')).toMatchObject({ is_error: true, content: expect.stringMatching(/^Interrupted: Waypoint was closed while this sub-agent was working/) });
  expect(runs).toEqual(['poke']);
}, 90_000);

/**
 * Who asks in the chat's reply (the delegate call toolu_lay): its own sub-agent, or at depth 2
 * (Settings "Sub-agent depth" 2) that one's sub-agent; `chain`: from the chat's sub-agent down.
 */
function askerAt(depth: 1 | 2) {
  const poke: ScriptedTurn = { kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] };
  const laidOut: ScriptedTurn = { kind: 'text', text: 'Lines laid out after the poke.' };
  if (depth === 1) return { chain: ['Lay out the grid lines'], scripts: { 'Lay out': [poke, laidOut] } };
  return {
    chain: ['Lay out the grid lines', 'Place the columns'],
    scripts: { 'Lay out': [{ kind: 'tool_use', calls: [delegate('toolu_place', 'Place the columns')] }, laidOut], Place: [poke, { kind: 'text', text: 'Columns placed after the poke.' }] } as Record<string, ScriptedTurn[]>,
  };
}

/**
 * The chat's reply: a note that ends first, a sub-agent that asks (itself, or at `depth` 2 its
 * own sub-agent), a sibling that ends after the question, one still working when the app quits.
 * Then a restart (`olderLog`: its waiting record as a version before `chatFinished` wrote it) and
 * Approve; the chat's next request is returned.
 */
async function chatRepliesAroundAWaitingSubAgent(olderLog: boolean, depth: 1 | 2 = 1) {
  const around = aroundAQuestion({ id: 'toolu_lay', task: 'Lay out the grid lines' });
  const asker = askerAt(depth);
  const asks = asker.chain.at(-1)!;
  const server = await scriptedWorld('chat-finished-restart', {
    'Build the grid': [around.reply, { kind: 'text', text: 'The grid is laid out.' }],
    ...asker.scripts,
    ...around.siblings,
  });
  const runs: string[] = [];
  const { tools, note, notes, countEnds } = toolsAroundAQuestion(runs);
  const settings = settingsSource({ subAgentDepth: depth });
  const first = await startInstance(root, server.url, settings, tools);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Build the grid');
  const asked = await approvalAsked(first, id);
  expect(asked?.agent).toMatchObject({ title: asks, depth });
  await countEnds(first);
  await quit(first);
  if (olderLog) {
    const path = join(root, 'sessions', id, 'events.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n').map((line) => {
      if (!line.includes('"subagent_waiting"')) return line;
      const record = JSON.parse(line) as { waiting: { chatFinished?: unknown } };
      expect(record.waiting.chatFinished ?? []).not.toHaveLength(0);
      delete record.waiting.chatFinished;
      return JSON.stringify(record);
    });
    await writeFile(path, lines.join('\n'));
  }
  const sent = server.requests.length;

  const { second, opened } = await reopenedAsking(settings, [pokeTool(runs), note], id, asked!.id, asks);
  expect(opened.subagents!.map((a) => [a.title, a.status])).toEqual([
    [asker.chain[0], 'working'],
    ['Count the bays', 'done'],
    ['Measure the bays', 'interrupted'],
    // A deeper one started after its parent's siblings: its parent had to ask for it first.
    ...asker.chain.slice(1).map((title) => [title, 'working']),
  ]);
  // The note's card stays as it ended: done, with its result.
  expect(opened.transcript.find((item) => item.kind === 'tool_call' && item.toolUseId === 'toolu_note')).toMatchObject({ status: 'done', result: 'noted: 4 bays of 25 ft' });
  expect(second.chat.answerApproval(id, asked!.id, 'approve')).toEqual({ accepted: true });
  await second.idle(id, 30_000);
  // The one asking runs on first, then each one above it, then the chat.
  expect(server.requests.slice(sent).map((r) => firstText(r.body as Body))).toEqual([...asker.chain.toReversed(), 'Build the grid']);
  expect(runs).toEqual(['poke']);
  expect(notes).toEqual(['noted']);
  expect(second.chats.getSession(id).transcript.some((item) => item.kind === 'assistant' && item.text === 'The grid is laid out.')).toBe(true);
  const chat = requestsOf(server, 'Build the grid').at(-1)!;
  expect(resultOf(chat, 'toolu_lay')).toMatchObject({ content: 'Lines laid out after the poke.' });
  expect(resultOf(chat, 'toolu_measure')).toMatchObject({ is_error: true, content: expect.stringMatching(/^Interrupted: Waypoint was closed while this sub-agent was working/) });
  return chat;
}

it.each([1, 2] as const)("the chat resumed after a restart gets the real results of its reply's calls that had ended while its sub-agent waited (a note, a sibling sub-agent), and \"Interrupted\" for one still running; the one asking at depth %i", async (depth) => {
  const chat = await chatRepliesAroundAWaitingSubAgent(false, depth);
  expect(resultOf(chat, 'toolu_note')).toMatchObject({ content: 'noted: 4 bays of 25 ft' });
  expect(resultOf(chat, 'toolu_note')?.is_error).toBeUndefined();
  expect(resultOf(chat, 'toolu_count')).toMatchObject({ content: 'Four bays.' });
  expect(resultOf(chat, 'toolu_count')?.is_error).toBeUndefined();
}, 90_000);

it('a waiting record from before the chat\'s ended calls were kept leaves those calls "Interrupted" after a restart, as before', async () => {
  const chat = await chatRepliesAroundAWaitingSubAgent(true);
  expect(resultOf(chat, 'toolu_note')).toMatchObject({ is_error: true, content: expect.stringMatching(/^Interrupted: Waypoint was closed before this tool call finished/) });
  expect(resultOf(chat, 'toolu_count')).toMatchObject({ is_error: true, content: expect.stringMatching(/^Interrupted: Waypoint was closed before this tool call finished/) });
}, 90_000);
