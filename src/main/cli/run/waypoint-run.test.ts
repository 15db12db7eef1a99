import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_JS, cliEnv, killAllCli, requireBuiltCli, runCli, startCli } from '../../../../test-support/main/cli-harness';
import { checkLogs } from '../../../../test-support/main/kill-harness';
import { plansStructured } from '../../../../test-support/scenarios/plans-structured';
import { askChoice, QUESTION } from '../../../../test-support/scenarios/questions';
import { recoveryEscalationAbort, recoveryEscalationSkip, RECOVERY_FILE, RECOVERY_FILE_TEXT } from '../../../../test-support/scenarios/recovery-escalation';
import { APP_JS, toolsEdit } from '../../../../test-support/scenarios/tools-workspace';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import { useCliTestWorld } from '../../../../test-support/main/cli-test-world';
import type { Scenario, ScriptedTurn } from '../../../../test-support/scripted-api/scenario';

/**
 * `waypoint run` as a script or CI job runs it: the built CLI in a child process against the
 * scripted Messages API, one test per exit code (docs/contract.md §7), --json read line by line, Ctrl+C,
 * and the live task list under a real pseudo-terminal.
 */
const world = useCliTestWorld('waypoint-cli-', { name: 'echo', turns: [], onExhausted: 'echo' });
let server: ScriptedServer;
let root: string;
let dataDir: string;
let workspace: string;

beforeAll(() => requireBuiltCli());
beforeEach(() => {
  ({ api: server, root, dataDir, workspace } = world);
});
afterEach(() => killAllCli());

const env = () => cliEnv(server.url);
const run = (args: string[], extra: Record<string, string> = {}) => runCli(args, cliEnv(server.url, extra));
const use = (scenario: Scenario) => server.setScenario(scenario);
const ESC = String.fromCharCode(27);
/** The text without its colour codes (SGR), which depend on the terminal and on CI=true. */
const uncoloured = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '');
const chatIdIn = (text: string) => /--resume ([0-9a-f-]{36})/.exec(text)?.[1] ?? null;

describe('waypoint run: exit codes', { timeout: 60_000 }, () => {
  it('0: the plan completed; the run is a chat in the data folder, plan and all, and its lock is given back', async () => {
    use(plansStructured);
    const result = await run(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('» [3/3 steps · 100%]');
    expect(result.stdout).toMatch(/now: step 2 "Create horizontal grid lines/);
    expect(result.stdout).toContain("Done: the 3x3 grid is in place at 25' spacing");
    expect(result.stdout).toContain('is complete.');
    // Not the app's default folder: the app shows the chat only when started on this one, and is told so.
    expect(result.stdout).toContain(`the Waypoint app shows it when started with WAYPOINT_DATA_DIR=${dataDir}`);

    const [log, ...others] = checkLogs(dataDir);
    expect(others).toHaveLength(0);
    expect(log!.problems).toEqual([]);
    expect(log!.chat.plan).toMatchObject({ status: 'completed', goal: "Create 3x3 structural grid at 25' spacing" });
    expect(log!.chat.summary).toMatchObject({ title: 'Create a structural grid', workspace, origin: { kind: 'run' } });
    expect(log!.chat.runState).toEqual({ status: 'idle' });
    expect(existsSync(join(dataDir, 'sessions', `${log!.id}.lock`))).toBe(false);
  });

  it('2: a step keeps failing; the step, its answers and the answering command are printed; --answer skip finishes it (0)', async () => {
    use(recoveryEscalationSkip);
    writeFileSync(join(workspace, RECOVERY_FILE), RECOVERY_FILE_TEXT);
    const first = await run(['run', 'Tidy notes.txt', '--workspace', workspace, '--data-dir', dataDir]);
    expect(first.code).toBe(2);
    expect(first.stdout).toMatch(/Step 1 "Fix the greeting typo" keeps failing \(edit_file: /);
    expect(first.stdout).toContain('Answers: "skip", "abort", or guidance for Claude');
    const id = chatIdIn(first.stdout)!;
    expect(first.stdout).toContain(`Answer with: npx waypoint run --resume ${id} --answer ANSWER --data-dir ${dataDir}`);
    // The question is in the chat's log, so the app (or this command) can answer it later.
    const paused = checkLogs(dataDir)[0]!;
    expect(paused.chat.prompts.map((p) => p.type)).toEqual(['escalation_requested']);
    expect(existsSync(join(dataDir, 'sessions', `${id}.lock`))).toBe(false);

    // Asking again without an answer is still "a person is needed".
    const again = await run(['run', '--resume', id, '--data-dir', dataDir]);
    expect(again.code).toBe(2);

    const second = await run(['run', '--resume', id, '--answer', 'skip', '--data-dir', dataDir]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Step 1 was skipped as you asked; step 2 is done.');
    // A plan with a skipped step is not called "complete" without saying so.
    expect(second.stdout).not.toMatch(/\bcomplete\b/);
    expect(second.stdout).toContain('completed, 1 step skipped');
    const done = checkLogs(dataDir)[0]!;
    expect(done.problems).toEqual([]);
    expect(done.chat.plan?.status).toBe('completed');
    expect(done.chat.plan?.steps.map((s) => s.status)).toEqual(['skipped', 'completed']);
  });

  it("2: Claude asks a question (ask_user); its options are printed, and --answer gives Claude the answer word for word (0)", async () => {
    use(askChoice);
    const first = await run(['run', 'Set up the app', '--workspace', workspace, '--data-dir', dataDir]);
    expect(first.code).toBe(2);
    expect(first.stdout).toContain(`Claude asks: ${QUESTION}`);
    expect(first.stdout).toContain('Answers: "PostgreSQL", "SQLite", or an answer in your own words');
    const id = chatIdIn(first.stdout)!;
    expect(checkLogs(dataDir)[0]!.chat.prompts.map((p) => p.type)).toEqual(['question_requested']);

    const second = await run(['run', '--resume', id, '--answer', 'SQLite', '--data-dir', dataDir]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Thanks, I will set it up that way.');
    // The answer went back as the ask_user call's tool_result, verbatim.
    const last = server.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(last.messages.at(-1))).toContain('SQLite');
    expect(checkLogs(dataDir)[0]!.problems).toEqual([]);
  });

  /**
   * A sub-agent's question ("Which database?", asked by "Pick the database") stops a first run
   * (exit 2, the sub-agent named); `--answer SQLite` in a second one runs on to the chat's last
   * words (exit 0). Returns the request bodies, to read who heard what.
   */
  async function answeredInASecondRun(scenario: Scenario, lastWords: string): Promise<string[]> {
    use(scenario);
    const first = await run(['run', 'Set up the app', '--workspace', workspace, '--data-dir', dataDir]);
    expect(first.code).toBe(2);
    expect(first.stdout).toContain('Sub-agent: Pick the database: Claude asks: Which database?');
    const id = chatIdIn(first.stdout)!;
    const second = await run(['run', '--resume', id, '--answer', 'SQLite', '--data-dir', dataDir]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(lastWords);
    expect(checkLogs(dataDir)[0]!.problems).toEqual([]);
    return server.requests.map((r) => JSON.stringify(r.body));
  }

  const askDatabase: ScriptedTurn = { kind: 'tool_use', calls: [{ name: 'ask_user', input: { question: 'Which database?', options: ['PostgreSQL', 'SQLite'] } }] };

  it("2: a sub-agent's question stops the run with the sub-agent named; --answer runs the sub-agent on, then the chat, which ends (0)", async () => {
    const bodies = await answeredInASecondRun(
      {
        name: 'sub-agent-question',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'delegate', input: { task: 'Pick the database' } }] },
          askDatabase,
          { kind: 'text', text: 'The sub-agent picked the answer.' },
          { kind: 'text', text: 'The chat is done with the sub-agent.' },
        ],
      },
      'The chat is done with the sub-agent.',
    );
    // The sub-agent heard the answer, and the chat heard the sub-agent's final text.
    expect(bodies.at(-2)).toContain('SQLite');
    expect(bodies.at(-1)).toContain('The sub-agent picked the answer.');
  });

  it("2: a question of a sub-agent's own sub-agent (depth 2) stops the run; --answer runs it on, then its parent sub-agent, then the chat (0)", async () => {
    const bodies = await answeredInASecondRun(
      {
        name: 'deep-sub-agent-question',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'delegate', input: { task: 'Set up the storage' } }] },
          { kind: 'tool_use', calls: [{ name: 'delegate', input: { task: 'Pick the database' } }] },
          askDatabase,
          { kind: 'text', text: 'The deep sub-agent picked the answer.' },
          { kind: 'text', text: 'The storage is set up.' },
          { kind: 'text', text: 'The chat is done with its sub-agents.' },
        ],
      },
      'The chat is done with its sub-agents.',
    );
    // Each heard the one below it: the answer, then each one's final text, up to the chat.
    expect(bodies.at(-3)).toContain('SQLite');
    expect(bodies.at(-2)).toContain('The deep sub-agent picked the answer.');
    expect(bodies.at(-1)).toContain('The storage is set up.');
  });

  it('1: the answer "abort" cancels the plan and sends nothing more to Claude', async () => {
    use(recoveryEscalationAbort);
    writeFileSync(join(workspace, RECOVERY_FILE), RECOVERY_FILE_TEXT);
    const first = await run(['run', 'Tidy notes.txt', '--workspace', workspace, '--data-dir', dataDir, '--json']);
    expect(first.code).toBe(2);
    const finished = JSON.parse(first.stdout.trimEnd().split('\n').at(-1)!) as { type: string; exitCode: number; answerCommand: string; person: { options: string[] } };
    expect(finished).toMatchObject({ type: 'run_finished', exitCode: 2, person: { kind: 'escalation', options: ['skip', 'abort'] } });
    expect(finished.answerCommand).toMatch(/^npx waypoint run --resume [0-9a-f-]{36} --answer ANSWER --data-dir \S+ --json$/);
    const id = chatIdIn(finished.answerCommand)!;

    const requests = server.requests.length;
    // No API key is needed to abort: nothing is sent.
    const aborted = await runCli(['run', '--resume', id, '--answer', 'abort', '--data-dir', dataDir], cliEnv(null));
    expect(aborted.code).toBe(1);
    expect(aborted.stdout).toContain('was aborted');
    expect(server.requests.length).toBe(requests);
    expect(checkLogs(dataDir)[0]!.chat.plan?.status).toBe('cancelled');
  });

  it('3: the API keeps failing beyond the retries; the last error is printed and the chat can be resumed', async () => {
    use({ name: 'api-down', turns: [], onExhausted: 'error' });
    const result = await run(['run', 'Say hello', '--workspace', workspace, '--data-dir', dataDir]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/The Anthropic API had an internal error \(500\)\. Waypoint retried 1 time without success\./);
    const id = chatIdIn(result.stdout)!;
    expect(result.stdout).toContain(`Continue with: npx waypoint run --resume ${id} --data-dir ${dataDir}`);
    // A terminal has no "Retry now" button: it is told the command, and the failure is said once.
    expect(result.stdout).not.toContain('Retry now');
    expect(result.stdout).toMatch(/Your message is kept: run the "Continue with" command below to send it again\./);
    expect(result.stdout.split('\n').filter((line) => line.includes('The Anthropic API had an internal error'))).toHaveLength(1);

    // The API is back: the kept message is sent again and answered.
    use({ name: 'echo', turns: [], onExhausted: 'echo' });
    const resumed = await run(['run', '--resume', id, '--data-dir', dataDir]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('You said: Say hello');
  });

  it('3, then --answer retry: the chat awaiting "Retry now" after the run quit is answered from the CLI and runs on; abort sends nothing', async () => {
    use({ name: 'api-down', turns: [], onExhausted: 'error' });
    const failed = await run(['run', 'Say hello', '--workspace', workspace, '--data-dir', dataDir]);
    expect(failed.code).toBe(3);
    const id = chatIdIn(failed.stdout)!;

    // An answer that is neither word is refused, and the chat still awaits its answer.
    const wrong = await run(['run', '--resume', id, '--answer', 'maybe', '--data-dir', dataDir]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/retry or abort/);

    // The API is back; the process that asked is gone: "retry" resends the kept message.
    use({ name: 'echo', turns: [], onExhausted: 'echo' });
    const retried = await run(['run', '--resume', id, '--answer', 'retry', '--data-dir', dataDir]);
    expect(retried.code, retried.stdout + retried.stderr).toBe(0);
    expect(retried.stdout).toContain('You said: Say hello');
    // Answered: nothing awaits "Retry now" any more.
    const again = await run(['run', '--resume', id, '--answer', 'retry', '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not waiting for an answer/);
  });

  it('3, then --answer abort: "Retry now" is declined, nothing is sent and nothing awaits it any more', async () => {
    use({ name: 'api-down', turns: [], onExhausted: 'error' });
    const failed = await run(['run', 'Say hello', '--workspace', workspace, '--data-dir', dataDir]);
    expect(failed.code).toBe(3);
    const id = chatIdIn(failed.stdout)!;
    const requests = server.requests.length;
    use({ name: 'echo', turns: [], onExhausted: 'echo' });
    const aborted = await run(['run', '--resume', id, '--answer', 'abort', '--data-dir', dataDir]);
    expect(aborted.code, aborted.stdout + aborted.stderr).toBe(1);
    expect(aborted.stdout).toContain('Not retried: the kept message was not sent again.');
    expect(server.requests.length).toBe(requests);
    const again = await run(['run', '--resume', id, '--answer', 'retry', '--data-dir', dataDir]);
    expect(again.stderr).toMatch(/not waiting for an answer/);
  });

  it('4: a risky edit is refused without --auto-approve; nothing is written and the tool and file are named', async () => {
    use(toolsEdit);
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'app.js'), APP_JS);
    const result = await run(['run', 'Fix the answer', '--workspace', workspace, '--data-dir', dataDir]);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('refused (no --auto-approve): Edit src/app.js');
    expect(result.stdout).toMatch(/Refused without --auto-approve: edit_file \(Edit src\/app\.js[^)]*\)/);
    expect(readFileSync(join(workspace, 'src', 'app.js'), 'utf8')).toBe(APP_JS);
    // Claude heard of the refusal as a denial, and answered without the edit.
    const toolResult = JSON.stringify((server.requests.at(-1)!.body as { messages: unknown[] }).messages.at(-1));
    expect(toolResult).toMatch(/denied this edit_file call/);

    use(toolsEdit);
    const approved = await run(['run', 'Fix the answer', '--workspace', workspace, '--data-dir', dataDir, '--auto-approve']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('approved (--auto-approve): Edit src/app.js');
    expect(readFileSync(join(workspace, 'src', 'app.js'), 'utf8')).toContain('const answer = 42;');

    // Approval settings apply without the flag: edits auto-approved in Settings are no refusal.
    writeFileSync(join(workspace, 'src', 'app.js'), APP_JS);
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ autoApproveEdits: true }));
    use(toolsEdit);
    const bySettings = await run(['run', 'Fix the answer', '--workspace', workspace, '--data-dir', dataDir]);
    expect(bySettings.code, bySettings.stdout + bySettings.stderr).toBe(0);
    expect(bySettings.stdout).not.toContain('refused');
    expect(readFileSync(join(workspace, 'src', 'app.js'), 'utf8')).toContain('const answer = 42;');
  });

  it('4: with --auto-approve, a change to .git/config is still refused (it always asks, and a run cannot ask); nothing is written', async () => {
    mkdirSync(join(workspace, '.git'));
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n');
    use({
      name: 'git-config',
      turns: [
        { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: '.git/config', content: '[diff]\n\texternal = /tmp/x.sh\n' } }] },
        { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'ok\n' } }] },
        { kind: 'text', text: 'Done what I could.' },
      ],
    });
    const before = server.requests.length;
    const result = await run(['run', 'Set up a diff tool', '--workspace', workspace, '--data-dir', dataDir, '--auto-approve']);
    expect(result.code, result.stdout + result.stderr).toBe(4);
    // Claude hears why, not that "the user denied" it: nobody was asked.
    const refusal = JSON.stringify((server.requests[before + 1]!.body as { messages: unknown[] }).messages.at(-1));
    expect(refusal).toMatch(/"tool_result"/);
    expect(refusal).not.toMatch(/The user denied/);
    expect(refusal).toMatch(/needs a person's approval in the Waypoint app/);
    expect(refusal).toMatch(/a headless run \(waypoint run\) cannot ask/);
    expect(result.stdout).toMatch(/refused \(always asks; --auto-approve does not cover it\): Write \.git\/config/);
    expect(result.stdout).toMatch(/Refused: write_file \(Write \.git\/config \(\d+ bytes\)\): This changes git's configuration/);
    expect(result.stdout).toContain('Approve it in the Waypoint app');
    expect(result.stdout).not.toContain('Run again with --auto-approve');
    expect(readFileSync(join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n');
    // The ordinary write in the same run was approved by the flag.
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('ok\n');
  });

  it('a data folder inside the workspace: a note on stderr at start, and write_file cannot change its settings even with --auto-approve', async () => {
    const inside = join(workspace, '.config', 'Waypoint');
    use({
      name: 'data-inside',
      turns: [
        { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: '.config/Waypoint/settings.json', content: '{"autoApproveCommands":true}' } }] },
        { kind: 'text', text: 'Could not.' },
      ],
    });
    const result = await run(['run', 'Turn on auto-approve', '--workspace', workspace, '--data-dir', inside, '--auto-approve']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toContain(`waypoint: note: Waypoint's data folder (${inside}) is inside the workspace; file tools can't touch it, but commands Claude runs can.`);
    expect(result.stdout).toMatch(/is inside Waypoint's data folder, which tools can't read or change/);
    const settingsFile = join(inside, 'settings.json');
    expect(existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {}).not.toMatchObject({ autoApproveCommands: true });
  });

  it('1: bad input is one "waypoint:" line on stderr, before any request, and creates nothing', { timeout: 90_000 }, async () => {
    const requests = server.requests.length;
    const file = join(root, 'a-file.txt');
    writeFileSync(file, 'not a folder');
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [['run', 'Task', '--workspace', workspace, '--data-dir', dataDir, '--frobnicate'], /unknown option "--frobnicate"/],
      [['run', 'Task', '--data-dir', dataDir], /--workspace DIR is required/],
      [['run', 'Task', '--workspace', join(root, 'missing'), '--data-dir', dataDir], /does not exist or is not a folder/],
      [['run', 'Task', '--workspace', file, '--data-dir', dataDir], /does not exist or is not a folder/],
      [['run', 'Task', '--workspace', workspace, '--data-dir', dataDir, '--planning-style', 'kanban'], /unknown planning style "kanban": use one of structured \| checklist \| wbs \| session/],
      [['run', '', '--workspace', workspace, '--data-dir', dataDir], /the task is empty/],
      [['run', ' \n ', '--workspace', workspace, '--data-dir', dataDir], /the task is empty/],
      [['run', '-', '--workspace', workspace, '--data-dir', dataDir], /never reads stdin/],
      [['run', '--workspace', workspace, '--data-dir', dataDir], /say what to do/],
      [['run', 'Task', '--workspace', workspace, '--data-dir', file], /is a file, not a folder/],
      [['run', '--answer', 'skip', '--workspace', workspace, '--data-dir', dataDir], /use it with --resume/],
      [['fly'], /unknown command "fly"/],
      [['run', 'Task', '--workspace', workspace, '--data-dir', dataDir], /no API key: set ANTHROPIC_API_KEY/, { ANTHROPIC_API_KEY: '' }],
    ];
    const results = await Promise.all(cases.map(([args, , extra]) => runCli(args, { ...env(), ...extra })));
    for (const [i, [args, message]] of cases.entries()) {
      const result = results[i]!;
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout, args.join(' ')).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0], args.join(' ')).toMatch(/^waypoint: /);
      expect(lines[0], args.join(' ')).toMatch(message);
    }
    // A chat that does not exist is refused too, and says where it looked.
    const missing = await run(['run', '--resume', '00000000-0000-4000-8000-000000000000', '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^waypoint: There is no chat with id "00000000-0000-4000-8000-000000000000".*\(data folder: /);
    expect(server.requests.length).toBe(requests);
    expect(existsSync(join(dataDir, 'sessions')) ? checkLogs(dataDir) : []).toEqual([]);
  });
});

describe('waypoint run: output', { timeout: 60_000 }, () => {
  it('--json: stdout holds only JSON lines of the contract\'s events for one chat, plan versions rising, run_finished last', async () => {
    use(plansStructured);
    const result = await run(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir, '--json']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; sessionId: string; [k: string]: unknown });
    const ids = new Set(lines.map((l) => l.sessionId));
    expect(ids.size).toBe(1);
    expect(lines.every((l) => Object.keys(l).slice(0, 2).join() === 'type,sessionId')).toBe(true);
    const types = new Set(lines.map((l) => l.type));
    for (const type of ['session_updated', 'transcript_item', 'run_state', 'message_delta', 'message_done', 'plan_updated']) expect(types).toContain(type);
    const versions = lines.filter((l) => l.type === 'plan_updated').map((l) => (l.plan as { version: number }).version);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(lines.at(-1)).toMatchObject({ type: 'run_finished', exitCode: 0, outcome: 'done' });
    expect(lines.filter((l) => l.type === 'run_finished')).toHaveLength(1);
    // Human words went to stderr.
    expect(result.stderr).toContain('is complete.');
  });

  it('Ctrl+C stops the run cleanly (exit 1); the chat stays resumable and --resume finishes the plan', async () => {
    // Its own server: the request cut off by Ctrl+C stays held at the gate, out of the others' way.
    const gated = await startScriptedServer({ scenario: { ...plansStructured, gated: true } });
    try {
      const running = startCli(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir], cliEnv(gated.url));
      await gated.release(2); // create_plan, start step 1; the third request waits
      await running.waitFor(/now: step 1 /);
      running.child.kill('SIGINT');
      const stopped = await running.done;
      expect(stopped.code).toBe(1);
      expect(stopped.stdout).toContain('stopping (Ctrl+C)');
      const id = chatIdIn(stopped.stdout)!;
      expect(stopped.stdout).toContain(`Continue with: npx waypoint run --resume ${id}`);
      const log = checkLogs(dataDir)[0]!;
      expect(log.problems).toEqual([]);
      expect(log.chat.runState).toEqual({ status: 'idle' });
      expect(log.chat.summary.planProgress?.paused).toBe(true);
      expect(log.chat.transcript.at(-1)).toMatchObject({ kind: 'notice', code: 'stopped' });

      gated.setScenario({
        name: 'finish-grid',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'A, B, C' } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 2, result: '1, 2, 3' } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 3 } }] },
          // A verification step is done only after a check made while it is in progress (issue 14).
          { kind: 'tool_use', calls: [{ name: 'list_directory', input: { path: '.' } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 3, result: 'checked' } }] },
          { kind: 'text', text: 'Grid finished.' },
        ],
      });
      const before = gated.requests.length;
      const resumed = await runCli(['run', '--resume', id, '--data-dir', dataDir], cliEnv(gated.url));
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      // Stopped while Claude was being asked: the same request goes again, nothing typed twice.
      const sent = JSON.stringify((gated.requests[before]!.body as { messages: unknown[] }).messages.at(-1));
      expect(sent).toMatch(/"tool_result".*Updated plan: step 1 started/);
      expect(checkLogs(dataDir)[0]!.chat.plan?.status).toBe('completed');
    } finally {
      await gated.close();
    }
  });

  it('a reader that goes away (| head) stops the run as Ctrl+C does: no crash on EPIPE, the chat stays resumable', async () => {
    const gated = await startScriptedServer({ scenario: { ...plansStructured, gated: true } });
    try {
      const running = startCli(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir], cliEnv(gated.url));
      await gated.release(2);
      await running.waitFor(/now: step 1 /);
      running.child.stdout!.destroy();
      await gated.release(1); // the next reply is written to the closed pipe
      const stopped = await running.done;
      expect(stopped.code, stopped.stderr).toBe(1);
      expect(stopped.stderr).not.toMatch(/EPIPE|Unhandled|at /);
      const log = checkLogs(dataDir)[0]!;
      expect(log.problems).toEqual([]);
      expect(log.chat.runState).toEqual({ status: 'idle' });
      expect(log.chat.transcript.at(-1)).toMatchObject({ kind: 'notice', code: 'stopped' });
    } finally {
      await gated.close();
    }
  });

  /** `waypoint run` of the structured grid plan in a real pseudo-terminal of this size (`stty` words). */
  async function runInTerminal(size: string): Promise<{ code: number | null; out: string }> {
    // `script` gives the command a real pseudo-terminal (util-linux); -e passes its exit code on.
    const command = `stty ${size}; exec ${process.execPath} ${CLI_JS} run 'Create a structural grid' --workspace ${workspace} --data-dir ${dataDir}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, out };
  }

  it('a terminal gets a live task list: steps with their status, the current step, counts and a progress bar', async () => {
    use(plansStructured);
    const { code, out } = await runInTerminal('cols 100 rows 30');
    expect(code).toBe(0);
    // Redrawn in place: lines erased and written again (log-update's erase-line and cursor-up).
    expect(out).toContain('\u001b[2K');
    expect(out).toContain('\u001b[1A');
    // The current step is marked while it runs, every step ends ticked, the bar fills up.
    expect(out).toMatch(/▶ 2\. Create horizontal grid lines 1, 2, 3 at 25' spacing/);
    expect(out).toMatch(/✔ 3\. Verify grid layout/);
    // Colours come and go with the environment (CI=true turns them off): read the bar without them.
    expect(uncoloured(out)).toMatch(/░+ 1\/3 steps · 33% · Step 2: Create horizontal grid lines/);
    expect(uncoloured(out)).toContain(`${'█'.repeat(24)} 3/3 steps · 100%`);
    expect(out).toMatch(/Claude is (thinking|writing)…/);
    expect(out).toContain('is complete.');
  });

  it('a terminal nobody sized (0×0, as `docker run -t` gives) still gets the text, the plan changes and the task list', async () => {
    use(plansStructured);
    const { code, out } = await runInTerminal('cols 0 rows 0');
    expect(code).toBe(0);
    expect(out).toContain("I'll plan this first.");
    expect(out).toContain('Plan: Created plan: 3 steps');
    expect(out).toMatch(/✔ 3\. Verify grid layout/);
    expect(uncoloured(out)).toContain(`${'█'.repeat(24)} 3/3 steps · 100%`);
  });
});

describe('waypoint run: the goal check', { timeout: 60_000 }, () => {
  it('runs headless too: a check not met reopens the plan with a Fix step, Claude fixes it; --json carries the verdict and the plain lines say it', async () => {
    const notMet: Scenario = {
      name: 'goal check headless',
      onExhausted: 'error',
      turns: [
        ...plansStructured.turns,
        { kind: 'tool_use', calls: [{ name: 'report_goal_check', input: { met: false, findings: ['The grid lines have no labels'] } }] },
        { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 4 } }, { name: 'update_plan', input: { action: 'complete_step', step_number: 4, result: 'Labelled A–C and 1–3' } }] },
        { kind: 'text', text: 'Labelled.' },
      ],
    };
    use(notMet);
    const json = await run(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir, '--json']);
    expect(json.code).toBe(0);
    const lines = json.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; [k: string]: unknown });
    const verdict = lines.find((l) => l.type === 'plan_updated' && (l.change as { kind: string; action?: string }).kind === 'goal_check' && (l.change as { action: string }).action === 'verdict');
    expect((verdict!.plan as { goalChecks: unknown[] }).goalChecks).toMatchObject([{ outcome: 'not_met', findings: ['The grid lines have no labels'], reopened: true }]);
    const card = lines.find((l) => l.type === 'transcript_item' && (l.item as { kind: string; goalCheck?: unknown }).goalCheck);
    expect((card!.item as { goalCheck: unknown }).goalCheck).toMatchObject({ outcome: 'not_met' });
    const fixed = lines.filter((l) => l.type === 'plan_updated').at(-1)!.plan as { status: string; steps: Array<{ title: string; status: string }> };
    expect(fixed.status).toBe('completed');
    expect(fixed.steps.at(-1)).toMatchObject({ title: 'Fix: The grid lines have no labels', status: 'completed' });

    use(notMet);
    const plain = await run(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Goal check: not met: The grid lines have no labels (the plan reopened with a Fix step for each)');
  });
});
