import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_JS, cliEnv, killAllCli, requireBuiltCli, runCli } from '../../../../test-support/main/cli-harness';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';

/**
 * `waypoint run` prints what Claude and the tools wrote. A terminal acts on escape sequences in
 * it (OSC 0 retitles the window, OSC 52 writes the clipboard, a carriage return overwrites the
 * line), so the human views print the text without them; --json keeps the text as it was, only
 * escaped as JSON. The built CLI against the scripted Messages API, as run-command.test.ts does.
 */
const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;
/** Every kind of sequence a terminal obeys, with payloads that would show if only ESC were dropped. */
const HOSTILE = [
  `title${ESC}]0;pwned-title${BEL}`,
  `clip${ESC}]52;c;cHduZWQ=${BEL}`,
  `${ESC}]8;;http://evil.example/${ST}link${ESC}]8;;${ST}`,
  `dcs${ESC}Pq#0;2;0;0;0${ST}`,
  `apc${ESC}_apc-payload${ST}pm${ESC}^pm-payload${ST}sos${ESC}Xsos-payload${ST}`,
  `csi\u009b31mred${ESC}[2Jcleared${ESC}[1;1Hhome`,
  `reset${ESC}c`,
  `safe\rEVIL`,
  `bell${BEL}nul\u0000bs\u0008del\u007f`,
  `rtl\u202eevil\u202c`,
].join(' ');
/** What a person should read: the visible words, in order, nothing else. */
const SHOWN = 'title clip link dcs apcpmsos csiredclearedhome reset safeEVIL bellnulbsdel rtlevil';
/** An answer option is a short label: a few escapes fit in it too. */
const SHORT = `-${ESC}]0;pwned-title${BEL}${ESC}[2J\r-`;
const PAYLOADS = ['pwned-title', 'cHduZWQ=', 'evil.example', 'q#0', 'apc-payload', 'pm-payload', 'sos-payload'];

const hostileRun: Scenario = {
  name: 'hostile-escapes',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: `Reply: ${HOSTILE}\n`,
      calls: [{ name: 'create_plan', input: { goal: `Goal ${HOSTILE}`, steps: [{ step_number: 1, description: `Step ${HOSTILE}` }] } }],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    // A tool's error names the path Claude gave it: the tool_error line carries the tool's words.
    { kind: 'tool_use', calls: [{ name: 'read_file', input: { path: `missing-${HOSTILE}.txt` } }] },
    { kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_hostile', input: { question: `Question ${HOSTILE}?`, options: [`One${SHORT}`, `Two${SHORT}`], allow_text: true } }] },
  ],
};

let server: ScriptedServer;
let root: string;
let dataDir: string;
let workspace: string;
let n = 0;

beforeAll(async () => {
  requireBuiltCli();
  server = await startScriptedServer({ scenario: hostileRun });
  root = mkdtempSync(join(tmpdir(), 'waypoint-escapes-'));
});
afterAll(async () => {
  killAllCli();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  n++;
  dataDir = join(root, `data-${n}`);
  workspace = join(root, `ws-${n}`);
  mkdirSync(workspace);
  server.setScenario(hostileRun);
});
afterEach(() => killAllCli());

/** Any control character but newline and tab, DEL, C1, or a bidi control. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function expectInert(text: string, label: string): void {
  const found = CONTROL.exec(text);
  expect(found && JSON.stringify(text.slice(Math.max(0, found.index - 20), found.index + 20)), `${label}: a control character`).toBeNull();
  for (const payload of PAYLOADS) expect(text, `${label}: ${payload}`).not.toContain(payload);
}

describe('waypoint run: what Claude and tools wrote reaches the terminal without its escapes', { timeout: 60_000 }, () => {
  it('plain lines (stdout a pipe): Claude\'s text, plan, tool error, question and answers carry no control sequence; the words stay', async () => {
    const result = await runCli(['run', 'Do it', '--workspace', workspace, '--data-dir', dataDir], cliEnv(server.url));
    expect(result.code, result.stderr).toBe(2); // the question ends it
    expectInert(result.stdout, 'stdout');
    expectInert(result.stderr, 'stderr');
    expect(result.stdout).toContain(`Reply: ${SHOWN}`);
    expect(result.stdout).toContain(`1. Step ${SHOWN}`);
    expect(result.stdout).toMatch(new RegExp(`✗ Read missing-${SHOWN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.txt: `));
    expect(result.stdout).toContain(`Claude asks: Question ${SHOWN}?`);
    expect(result.stdout).toContain('Answers: "One--", "Two--"');
  });

  it('--json keeps the text exactly as written, JSON-escaped: stdout itself holds no raw control character', async () => {
    const result = await runCli(['run', 'Do it', '--workspace', workspace, '--data-dir', dataDir, '--json'], cliEnv(server.url));
    expect(result.code, result.stderr).toBe(2);
    expect(CONTROL.test(result.stdout)).toBe(false);
    expect(CONTROL.test(result.stderr)).toBe(false);
    const lines = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; item?: { kind: string; text?: string; status?: string } });
    const replies = lines.filter((l) => l.type === 'transcript_item' && l.item?.kind === 'assistant' && l.item.status !== 'streaming');
    expect(replies.map((l) => l.item!.text)).toContain(`Reply: ${HOSTILE}\n`);
    const plan = lines.filter((l) => l.type === 'plan_updated').at(-1) as unknown as { plan: { goal: string; steps: Array<{ title: string }> } };
    expect(plan.plan.goal).toBe(`Goal ${HOSTILE}`);
    expect(plan.plan.steps[0]!.title).toBe(`Step ${HOSTILE}`);
  });

  it('the live view (a real pseudo-terminal): only its own drawing sequences reach the terminal', async () => {
    const command = `stty cols 200 rows 40; exec ${process.execPath} ${CLI_JS} run 'Do it' --workspace ${workspace} --data-dir ${dataDir}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: cliEnv(server.url, { FORCE_COLOR: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(2);
    expect(out).toContain('Claude asks: Question');
    // What the view draws with: colours (SGR), erase line (or its end), cursor up, column 1, cursor hide/show, synchronized output;
    // the pty turns each newline into CR LF. Anything left is something Claude or a tool wrote.
    const own = out
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[(?:2K|K|1A|G|\?25[lh]|\?2026[hl])/g, '')
      .replace(/\r\n/g, '\n');
    expectInert(own, 'terminal');
    expect(own).toContain(`Reply: ${SHOWN}`);
    expect(own).toContain(`1. Step ${SHOWN}`);
    expect(own).toContain(`Plan: Goal ${SHOWN}`);
  });
});
