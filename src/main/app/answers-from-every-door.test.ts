import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, requireBuiltCli, runCli } from '../../../test-support/main/cli-harness';
import { askChoice, QUESTION, QUESTION_OPTIONS } from '../../../test-support/scenarios/questions';
import { APP_JS, toolsEdit } from '../../../test-support/scenarios/tools-workspace';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { useCliTestWorld } from '../../../test-support/main/cli-test-world';
import { until as waitUntil } from '../../../test-support/main/until';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import type { CallName, CallOutput, WaypointEvent } from '../../shared/contract';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

/**
 * One pause model (docs/architecture.md "Questions the run pauses on"): a question a run paused on
 * is answered by one path whatever door the answer comes through — here another process on the
 * same data folder (through the chat's inbox) and `waypoint run --resume --answer` after the app
 * that asked has quit. Real SDK against the scripted Messages API, real files, the built CLI.
 */
let api: ScriptedServer;
let dataDir: string;
let workspace: string;
const open: AppServices[] = [];

/** Plan first: Claude proposes a one-step plan and ends its turn; once approved it edits src/app.js. */
const planFirstEdit: Scenario = {
  name: 'doors-plan-first',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Fix the answer', steps: [{ step_number: 1, description: 'Edit src/app.js' }] } }] },
    { kind: 'text', text: 'Approve the plan, or tell me what to change.' },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }, { name: 'edit_file', input: { path: 'src/app.js', old_text: 'const answer = 41;', new_text: 'const answer = 42;' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'edited' } }] },
    { kind: 'text', text: 'Plan done: the answer is 42.' },
  ],
};

const world = useCliTestWorld('waypoint-doors-', toolsEdit);
beforeEach(() => {
  ({ api, dataDir, workspace } = world);
  mkdirSync(join(workspace, 'src'));
  mkdirSync(dataDir);
  writeFileSync(join(workspace, 'src/app.js'), APP_JS);
});
afterEach(async () => {
  for (const services of open.splice(0)) await services.dispose();
});

/** The app as one process runs it (the web shell's services), with its own events. */
async function app(): Promise<{ services: AppServices; events: WaypointEvent[]; call<N extends CallName>(name: N, input: unknown): Promise<CallOutput<N>> }> {
  const services = await createServices({
    dataDir,
    workspace,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-doors', ANTHROPIC_BASE_URL: api.url },
  });
  open.push(services);
  const events: WaypointEvent[] = [];
  services.onEvent((e) => events.push(e));
  return {
    services,
    events,
    async call(name, input) {
      const result = await services.router(name, input);
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
      return result.value as never;
    },
  };
}

const until = (condition: () => boolean, what: string) => waitUntil(condition, what, 20_000, 20);

describe('an answer from every door takes the one answer path', { timeout: 60_000 }, () => {
  it('another process on the data folder answers an approval through the chat inbox; the writer runs the call and the run completes', async () => {
    api.setScenario(toolsEdit);
    const writer = await app();
    const { id } = await writer.call('newSession', {});
    await writer.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => writer.events.some((e) => e.type === 'approval_requested'), 'the approval request');
    const request = (writer.events.find((e) => e.type === 'approval_requested') as { request: { id: string } }).request;

    // A second process (a second window on the same data folder) sees the question in the log and answers it.
    const other = await app();
    expect((await other.call('getSession', { sessionId: id })).pendingApproval?.id).toBe(request.id);
    // What the "Needs you" dialog reads of a chat it has not opened: the same request.
    expect(await other.call('getPendingPrompts', { sessionId: id })).toMatchObject({ pendingApproval: { id: request.id }, pendingEscalation: null, pendingQuestion: null, proposedPlan: null });
    const answered = await other.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' });
    expect(answered).toEqual({ accepted: true });

    // The writer recorded the answer, ran the edit, and finished the run.
    await until(() => writer.events.some((e) => e.type === 'transcript_item' && e.item.kind === 'assistant' && /answer is 42 now/.test((e.item as { text: string }).text) && (e.item as { status?: string }).status === 'done'), 'the final reply');
    expect(readFileSync(join(workspace, 'src/app.js'), 'utf8')).toContain('const answer = 42;');
    expect(writer.events.filter((e) => e.type === 'approval_resolved')).toEqual([{ type: 'approval_resolved', sessionId: id, requestId: request.id, decision: 'approved' }]);
    // Answered once: the same answer again finds nothing open.
    await expect(other.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' })).resolves.toEqual({ accepted: false });
  });

  it('an answer that does not fit, sent through the inbox, is refused with the writer’s reason and changes nothing', async () => {
    // Only the options are taken: another answer does not fit, and only the writer knows the question.
    api.setScenario({
      ...askChoice,
      turns: [
        { kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_ask', input: { question: QUESTION, options: QUESTION_OPTIONS, allow_text: false } }] },
        { kind: 'text', text: 'Thanks, I will set it up that way.' },
      ],
    });
    const writer = await app();
    const { id } = await writer.call('newSession', {});
    await writer.call('sendMessage', { sessionId: id, text: 'Set up the app' });
    await until(() => writer.events.some((e) => e.type === 'question_requested'), 'the question');
    const request = (writer.events.find((e) => e.type === 'question_requested') as { request: { id: string; question: string } }).request;
    expect(request.question).toBe(QUESTION);

    const other = await app();
    await expect(other.call('answerQuestion', { sessionId: id, requestId: request.id, answer: 'MongoDB' })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/Pick one of those/) });
    expect(writer.events.some((e) => e.type === 'question_resolved')).toBe(false);
    await expect(other.call('answerQuestion', { sessionId: id, requestId: request.id, answer: 'SQLite' })).resolves.toEqual({ accepted: true });
    await until(() => writer.events.some((e) => e.type === 'question_resolved'), 'the answer recorded');
  });

  it('another process approves a plan proposal (plan first) through the inbox; the writer records it and works through the plan', async () => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ planFirst: true, autoApproveEdits: true }));
    api.setScenario(planFirstEdit);
    const writer = await app();
    const { id } = await writer.call('newSession', {});
    await writer.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => writer.events.some((e) => e.type === 'transcript_item' && /Approve the plan/.test((e.item as { text?: string }).text ?? '') && (e.item as { status?: string }).status === 'done'), 'the proposal');
    await until(() => writer.events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle'), 'the run to end');
    const plan = (await writer.call('getSession', { sessionId: id })).plan!;

    const other = await app();
    expect(await other.call('getPendingPrompts', { sessionId: id })).toMatchObject({ pendingApproval: null, proposedPlan: { id: plan.id, version: plan.version } });
    const reviewed = await other.call('reviewPlan', { sessionId: id, planId: plan.id, version: plan.version, decision: { kind: 'approve' } });
    expect(reviewed.itemId).not.toBe('');
    await until(() => writer.events.some((e) => e.type === 'transcript_item' && /Plan done: the answer is 42/.test((e.item as { text?: string }).text ?? '') && (e.item as { status?: string }).status === 'done'), 'the plan worked through');
    expect(readFileSync(join(workspace, 'src/app.js'), 'utf8')).toContain('const answer = 42;');
    // A stale answer (the plan moved on) is refused with the writer's reason.
    await expect(other.call('reviewPlan', { sessionId: id, planId: plan.id, version: plan.version, decision: { kind: 'approve' } })).rejects.toThrow(/.+/);
  });

  it('waypoint run --resume --answer approve answers the approval the window paused on after the app quit, and the run completes', async () => {
    requireBuiltCli();
    api.setScenario(toolsEdit);
    const first = await app();
    const { id } = await first.call('newSession', {});
    await first.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => first.events.some((e) => e.type === 'approval_requested'), 'the approval request');
    // The app quits with the question open: its log keeps it.
    await open.splice(0)[0]!.dispose();
    expect(readFileSync(join(workspace, 'src/app.js'), 'utf8')).toBe(APP_JS);

    const resumed = await runCli(['run', '--resume', id, '--answer', 'approve', '--data-dir', dataDir], cliEnv(api.url));
    expect(resumed.stderr).toBe('');
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain('Done: the answer is 42 now.');
    expect(readFileSync(join(workspace, 'src/app.js'), 'utf8')).toContain('const answer = 42;');
  });

  it('waypoint run --resume --answer approve approves the plan proposal the window showed before the app quit, and the plan is worked through', async () => {
    requireBuiltCli();
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ planFirst: true, autoApproveEdits: true }));
    api.setScenario(planFirstEdit);
    const first = await app();
    const { id } = await first.call('newSession', {});
    await first.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => first.events.some((e) => e.type === 'transcript_item' && /Approve the plan/.test((e.item as { text?: string }).text ?? '') && (e.item as { status?: string }).status === 'done'), 'the proposal');
    await until(() => first.events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle'), 'the run to end');
    await open.splice(0)[0]!.dispose();

    const resumed = await runCli(['run', '--resume', id, '--answer', 'approve', '--data-dir', dataDir], cliEnv(api.url));
    expect(resumed.stderr).toBe('');
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain('Plan done: the answer is 42.');
    expect(readFileSync(join(workspace, 'src/app.js'), 'utf8')).toContain('const answer = 42;');
  });

  it('--answer to an approval takes approve or deny, and says so otherwise', async () => {
    requireBuiltCli();
    api.setScenario(toolsEdit);
    const first = await app();
    const { id } = await first.call('newSession', {});
    await first.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => first.events.some((e) => e.type === 'approval_requested'), 'the approval request');
    await open.splice(0)[0]!.dispose();

    const wrong = await runCli(['run', '--resume', id, '--answer', 'maybe', '--data-dir', dataDir], cliEnv(api.url));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^waypoint: .*approve or deny/m);
    expect(readFileSync(join(workspace, 'src/app.js'), 'utf8')).toBe(APP_JS);
  });
});
