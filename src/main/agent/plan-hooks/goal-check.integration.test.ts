import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import type { PlanCompletionItem, TranscriptItem } from '../../../shared/transcript';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { startTestApp, type TestApp } from '../../../../test-support/main/app-test-kit';

// The goal check (issue 25) through the whole app: the real loop, PlanService, chat log and
// SDK against the scripted Messages API, on a real workspace.

let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const plan = (n = 2): ScriptedTurn => ({
  kind: 'tool_use',
  calls: [
    {
      name: 'create_plan',
      input: {
        goal: 'hello.txt greets the world',
        steps: [
          { step_number: 1, description: 'Write the greeting', success_criteria: 'hello.txt holds "hello world"' },
          ...(n > 1 ? [{ step_number: 2, description: 'Verify hello.txt', success_criteria: 'It reads "hello world"', is_verification: true, depends_on: [1] }] : []),
        ],
      },
    },
  ],
});
const step = (action: string, n: number, result?: string) => ({ name: 'update_plan', input: { action, step_number: n, ...(result ? { result } : {}) } });
/** Claude works the plan to its end (the last step completes it) and ends its turn with a reply. */
const worked: ScriptedTurn[] = [
  plan(),
  { kind: 'tool_use', calls: [step('start_step', 1), step('complete_step', 1, 'Wrote it')] },
  { kind: 'tool_use', calls: [step('start_step', 2), { name: 'read_file', input: { path: 'hello.txt' } }] },
  { kind: 'tool_use', calls: [step('complete_step', 2, 'It says hello world')] },
  { kind: 'text', text: 'All done.' },
];
const report = (met: unknown, findings: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name: 'report_goal_check', input: { met, findings } }] });
/** Claude fixes what the check found: the "Fix" step (id 3) started and completed, then a reply. */
const fixes = (id = 3): ScriptedTurn[] => [
  { kind: 'tool_use', calls: [step('start_step', id), step('complete_step', id, 'Fixed the spelling')] },
  { kind: 'text', text: 'Fixed.' },
];

async function run(turns: ScriptedTurn[], goalChecks?: number) {
  app = await startTestApp({ name: 'goal check', turns, onExhausted: 'error' }, { files: { 'hello.txt': 'helo world\n' }, settings: goalChecks === undefined ? {} : { goalChecks } });
  const { id } = await app.call('newSession', {});
  const from = app.events.length;
  await app.call('sendMessage', { sessionId: id, text: 'Make hello.txt greet the world.' });
  await app.idle(id, from);
  return id;
}

type Body = { tool_choice?: { type: string; name?: string }; messages: Array<{ role: string; content: unknown }>; tools?: Array<{ name: string }>; thinking?: unknown; system?: unknown };
const bodies = () => app!.api.requests.map((r) => r.body as Body);
const checks = () => bodies().filter((b) => b.tool_choice?.type === 'tool' && b.tool_choice.name === 'report_goal_check');
const textOf = (b: Body) => JSON.stringify(b.messages);
const session = async (id: string) => app!.call('getSession', { sessionId: id });
const cards = (items: readonly TranscriptItem[]) => items.filter((i): i is PlanCompletionItem => i.kind === 'plan_completion');
const planOf = async (id: string) => (await session(id)).plan as Plan;

describe('the goal check', () => {
  it('met: one independent request with no history, the one tool forced, no thinking; the card says so', async () => {
    const id = await run([...worked, report(true, [])]);
    const [check] = checks();
    expect(checks()).toHaveLength(1);
    expect(check!.messages).toHaveLength(1);
    expect(check!.tools?.map((t) => t.name)).toEqual(['report_goal_check']);
    expect(check!.thinking).toBeUndefined();
    // The goal, each step with its result and criteria, and the verification's tool output.
    expect(textOf(check!)).toContain('hello.txt greets the world');
    expect(textOf(check!)).toContain('Result: Wrote it');
    expect(textOf(check!)).toContain('Success criteria: It reads \\"hello world\\"');
    expect(textOf(check!)).toContain('helo world');
    expect(textOf(check!)).not.toContain('Make hello.txt greet the world.');
    const card = cards((await session(id)).transcript).at(-1)!;
    expect(card.goalCheck).toMatchObject({ outcome: 'met', findings: [] });
    expect((await planOf(id)).goalChecks).toMatchObject([{ round: 1, outcome: 'met' }]);
    // Nothing more was asked after the check.
    expect(bodies().at(-1)).toBe(check);
  });

  it('not met: the card says so, the plan reopens with a "Fix" step, Claude is told and fixes it, and a second check finds it met', async () => {
    const id = await run([...worked, report(false, ['hello.txt says "helo", not "hello"']), ...fixes(), report(true, [])], 2);
    expect(checks()).toHaveLength(2);
    const told = bodies().find((b) => textOf(b).includes("Waypoint's goal check found the goal not met"));
    expect(told).toBeDefined();
    expect(textOf(told!)).toContain('hello.txt says \\"helo\\", not \\"hello\\"');
    const p = await planOf(id);
    expect(p.steps.map((s) => [s.title, s.status])).toContainEqual(['Fix: hello.txt says "helo", not "hello"', 'completed']);
    expect(p.goalChecks?.map((c) => c.outcome)).toEqual(['not_met', 'met']);
    const all = cards((await session(id)).transcript);
    expect(all.at(-1)!.goalCheck).toMatchObject({ outcome: 'met' });
    // The second check sees the Fix step and its result.
    expect(textOf(checks()[1]!)).toContain('Fix: hello.txt says');
    expect(textOf(checks()[1]!)).toContain('Fixed the spelling');
  });

  it('rounds cap: with one round, a check not met reopens the plan, and the fixed plan is not checked again', async () => {
    const id = await run([...worked, report(false, ['Spelling']), ...fixes()], 1);
    expect(checks()).toHaveLength(1);
    const p = await planOf(id);
    expect(p.status).toBe('completed');
    expect(p.goalChecks).toHaveLength(1);
    expect(bodies().at(-1)!.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('no progress: the same findings twice start no further round', async () => {
    const both: ScriptedTurn = { kind: 'tool_use', calls: [step('start_step', 3), step('complete_step', 3, 'Fixed'), step('start_step', 4), step('complete_step', 4, 'Fixed')] };
    const id = await run([...worked, report(false, ['Spelling', 'Capital H']), both, { kind: 'text', text: 'Fixed.' }, report(false, ['capital h', ' Spelling'])], 5);
    expect(checks()).toHaveLength(2);
    const p = await planOf(id);
    expect(p.goalChecks).toMatchObject([{ outcome: 'not_met', reopened: true }, { outcome: 'not_met', noProgress: true }]);
    expect(p.status).toBe('completed');
    expect(p.steps.filter((s) => s.title.startsWith('Fix: '))).toHaveLength(2);
    expect(cards((await session(id)).transcript).at(-1)!.goalCheck).toMatchObject({ outcome: 'not_met', noProgress: true });
  });

  it.each([
    ['missing findings', { kind: 'tool_use', calls: [{ name: 'report_goal_check', input: { met: true } }] } as ScriptedTurn],
    ['wrong types', report('yes', 'none')],
    ['no tool call', { kind: 'text', text: 'Looks fine to me.', ignoresToolChoice: true } as ScriptedTurn],
  ])('a malformed report (%s) is a failed check, shown, never as met, and costs no further round', async (_name, reply) => {
    const id = await run([...worked, reply], 3);
    expect(checks()).toHaveLength(1);
    const p = await planOf(id);
    expect(p.goalChecks).toMatchObject([{ outcome: 'failed' }]);
    expect(p.goalChecks![0]!.error).toMatch(/report_goal_check/);
    expect(p.status).toBe('completed');
    expect(cards((await session(id)).transcript).at(-1)!.goalCheck).toMatchObject({ outcome: 'failed' });
  });

  it('Goal checks 0: no check request at all', async () => {
    const id = await run(worked, 0);
    expect(checks()).toHaveLength(0);
    expect((await planOf(id)).goalChecks).toBeUndefined();
  });

  it('a restart between the completion and the check does the check once, not twice', async () => {
    // "Max model turns" 2 cuts the run right after the plan completed: no reply ended the turn yet.
    app = await startTestApp(
      { name: 'restart', onExhausted: 'error', turns: [plan(1), { kind: 'tool_use', calls: [step('start_step', 1), step('complete_step', 1, 'Wrote it')] }, { kind: 'text', text: 'Done.' }, report(true, []), { kind: 'text', text: 'You are welcome.' }] },
      { files: { 'hello.txt': 'hello world\n' }, settings: { maxModelTurns: 2 } },
    );
    const { id } = await app.call('newSession', {});
    let from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Make hello.txt greet the world.' });
    await app.idle(id, from);
    expect((await planOf(id)).goalCheckDue).toBe(true);
    expect(checks()).toHaveLength(0);
    await app.restart();
    from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Go on.' });
    await app.idle(id, from);
    expect(checks()).toHaveLength(1);
    await app.restart();
    from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Thanks.' });
    await app.idle(id, from);
    expect(checks()).toHaveLength(1);
    expect((await planOf(id)).goalChecks).toMatchObject([{ round: 1, outcome: 'met' }]);
    expect(cards((await session(id)).transcript).at(-1)!.goalCheck).toMatchObject({ outcome: 'met' });
  });
});

describe('the goal check on the cards', () => {
  it('the card of a completion the check reopened keeps "not met"; the next completion gets a card of its own', async () => {
    const id = await run([...worked, report(false, ['Spelling']), ...fixes(), report(true, [])], 2);
    const all = cards((await session(id)).transcript);
    expect(all.map((c) => c.goalCheck?.outcome)).toEqual(['not_met', 'met']);
    expect(all[0]!.goalCheck).toMatchObject({ findings: ['Spelling'], reopened: true });
    expect(all[1]!.steps?.map((s) => s.title)).toContain('Fix: Spelling');
  });
});

describe('the goal check costs', () => {
  it("the check's cost is in the plan's spend: the last request (the check) grows the plan's last step cost by what it grows the chat's", async () => {
    const id = await run([...worked, report(true, [])], 1);
    expect(bodies().at(-1)).toBe(checks()[0]);
    const key = `${(await planOf(id)).id}#2`;
    const metered = app!.events.flatMap((e) => (e.type === 'session_updated' && e.session.id === id && e.session.usage ? [e.session] : []));
    const costs = [...new Set(metered.map((s) => s.usage!.costUsd))];
    const [before, after] = [metered.findLast((s) => s.usage!.costUsd === costs.at(-2))!, metered.at(-1)!];
    const chatGrew = after.usage!.costUsd - before.usage!.costUsd;
    expect(chatGrew).toBeGreaterThan(0);
    expect((after.stepCosts?.[key] ?? 0) - (before.stepCosts?.[key] ?? 0)).toBeCloseTo(chatGrew, 12);
  });
});
