import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, killAllCli, requireBuiltCli, runCli } from '../../../../test-support/main/cli-harness';
import { checkLogs } from '../../../../test-support/main/kill-harness';
import { useCliTestWorld } from '../../../../test-support/main/cli-test-world';
import type { Scenario, ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import type { ScriptedServer } from '../../../../test-support/scripted-api/server';

/**
 * `waypoint run --budget-usd N`: the built CLI against scripted Claude. The plan's budget stops
 * the run with exit 5 and the spend; `--resume ID --answer extend` goes on, `end` ends the plan
 * partly done with nothing more sent.
 */
const world = useCliTestWorld('waypoint-cli-budget-', { name: 'echo', turns: [], onExhausted: 'echo' });
let server: ScriptedServer;
let dataDir: string;
let workspace: string;

beforeAll(() => requireBuiltCli());
beforeEach(() => {
  ({ api: server, dataDir, workspace } = world);
});
afterEach(() => killAllCli());

const use = (name: string, input: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name, input }] });
const fourSteps: Scenario = {
  name: 'budget-four-steps',
  onExhausted: 'echo',
  turns: [
    use('create_plan', { goal: 'Do four things', steps: [1, 2, 3, 4].map((n) => ({ step_number: n, description: `Thing ${n}` })) }),
    ...[1, 2, 3, 4].flatMap((n) => [use('update_plan', { action: 'start_step', step_number: n }), use('update_plan', { action: 'complete_step', step_number: n, result: `thing ${n} done` })]),
    { kind: 'text', text: 'All four done.' },
  ],
};
const run = (args: string[]) => runCli(args, cliEnv(server.url));
const chatIdIn = (text: string) => /--resume ([0-9a-f-]{36})/.exec(text)?.[1] ?? null;

describe('waypoint run: the plan budget', { timeout: 90_000 }, () => {
  it('5: the budget stops the run and the spend is printed; --answer extend goes on to the end (0)', async () => {
    server.setScenario(fourSteps);
    // About two requests' worth at Sonnet's $3 per million input tokens.
    const first = await run(['run', 'Do four things', '--workspace', workspace, '--data-dir', dataDir, '--budget-usd', '0.03']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(5);
    expect(first.stdout).toMatch(/Budget reached: the plan "Do four things" stopped at its budget: \$\d+\.\d\d of \$0\.03 spent/);
    expect(first.stdout).toMatch(/--answer ANSWER/);
    const id = chatIdIn(first.stdout)!;
    const sent = server.requests.length;
    expect(checkLogs(dataDir)[0]!.chat.plan).toMatchObject({ status: 'active', budget: { usd: 0.03, reached: { limit: 'usd' } } });

    const bad = await run(['run', '--resume', id, '--answer', 'more please', '--data-dir', dataDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^waypoint: the answer was not taken: a plan stopped at its budget is answered with extend, end or a new budget in dollars/);
    expect(server.requests.length).toBe(sent);

    const extended = await run(['run', '--resume', id, '--answer', '5', '--data-dir', dataDir]);
    expect(extended.code).toBe(0);
    expect(server.requests.length).toBeGreaterThan(sent);
    expect(checkLogs(dataDir)[0]!.chat.plan).toMatchObject({ status: 'completed', budget: { usd: 5 } });
  });

  it('--answer end ends the plan partly done and sends nothing more', async () => {
    server.setScenario(fourSteps);
    const first = await run(['run', 'Do four things', '--workspace', workspace, '--data-dir', dataDir, '--budget-usd', '0.03', '--json']);
    expect(first.code).toBe(5);
    const finished = JSON.parse(first.stdout.trimEnd().split('\n').at(-1)!) as { type: string; exitCode: number; spentUsd: number; answerCommand: string };
    expect(finished).toMatchObject({ type: 'run_finished', exitCode: 5 });
    expect(finished.spentUsd).toBeGreaterThan(0);
    const id = chatIdIn(finished.answerCommand)!;
    const sent = server.requests.length;
    const ended = await runCli(['run', '--resume', id, '--answer', 'end', '--data-dir', dataDir], cliEnv(server.url));
    expect(ended.code).toBe(1);
    expect(ended.stdout).toContain('ended partly done');
    expect(server.requests.length).toBe(sent);
    expect(checkLogs(dataDir)[0]!.chat.plan).toMatchObject({ status: 'partial', completion: { status: 'partial_success' } });
  });
});
