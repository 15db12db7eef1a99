import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scenario, ScriptedTurn } from '../../../test-support/scripted-api/scenario';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import { kill, killAllLaunched, launch, requireBuiltShell } from '../../../test-support/main/kill-harness';
import { CLI_JS, cliEnv, killAllCli, runCli, startCli } from '../../../test-support/main/cli-harness';
import { ISOLATION_VARIABLE } from '../tools/pid-isolation';

/**
 * No secret of Waypoint's is readable by what it starts (docs/security.md, "Secrets and what
 * Waypoint starts"): the built web shell and `waypoint run`, started with a key and other
 * credentials in their environment, let scripted Claude run every probe of the issue — the
 * parent's /proc environ, `ps eww` of the parent, every /proc/N/environ — through run_command and
 * through an MCP stdio server; no value shows up in a tool result, a file of the data folder, a
 * request to the API or the output.
 */
const tag = randomBytes(6).toString('hex');
const SECRETS: Record<string, string> = {
  ANTHROPIC_API_KEY: `sk-ant-test-reach-${tag}`,
  GITHUB_TOKEN: `ghp-test-reach-${tag}`,
  AWS_SECRET_ACCESS_KEY: `aws-test-reach-${tag}`,
  DEPLOY_PASSWORD: `password-test-reach-${tag}`,
};
const MCP_SERVER = { command: process.execPath, args: ['--import', 'tsx', resolve('test-support/mcp-server/stdio.ts'), '--environ-tool'], trusted: true };

const PROBES = {
  parent: "tr '\\0' '\\n' < /proc/$PPID/environ",
  ps: 'ps eww -p $PPID',
  every: 'for f in /proc/[0-9]*/environ; do echo "== $f"; tr \'\\0\' \'\\n\' < "$f"; done 2>/dev/null',
  own: 'printenv; tr \'\\0\' \'\\n\' < /proc/self/environ',
};

/** The server refuses any other key (requireApiKey): a run that ends well got the key, from memory. */
function probing(withMcp: boolean, probes: string[] = Object.values(PROBES)): Scenario {
  const calls = [
    ...probes.map((command) => ({ name: 'run_command', input: { command } })),
    ...(withMcp ? [{ name: 'probe__environ', input: {} }] : []),
  ];
  const turns: ScriptedTurn[] = [
    { kind: 'tool_use', text: 'Let me read every environment I can.', calls },
    { kind: 'text', text: 'Read.' },
  ];
  return { name: 'secret-probes', turns, onExhausted: 'error' };
}

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The tool results Claude got back, from the last request the scripted server saw. */
function toolResults(server: ScriptedServer): string[] {
  const last = server.requests.at(-1)!.body as { messages: Array<{ content: unknown }> };
  const results: string[] = [];
  for (const message of last.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown }>) if (block.type === 'tool_result') results.push(JSON.stringify(block.content));
  }
  return results;
}

/** Everything that must hold no secret: results, files of the data folder and workspace, requests, output. */
async function expectNoSecretAnywhere(server: ScriptedServer, dirs: string[], output: string, expectedResults: number): Promise<void> {
  const results = toolResults(server);
  expect(results).toHaveLength(expectedResults);
  // The probes really read environments (each shows a PATH), and ps really ran.
  for (const result of results) expect(result).toMatch(/PATH=/);
  expect(results[1]).toMatch(/PID/);
  const files = (await Promise.all(dirs.map(allFiles))).flat();
  expect(files.some((f) => f.endsWith('events.jsonl'))).toBe(true);
  const texts: Array<[string, string]> = [
    ...results.map((r, i): [string, string] => [`tool result ${i}`, r]),
    ...server.requests.map((r, i): [string, string] => [`request ${i}`, JSON.stringify(r.body)]),
    ...(await Promise.all(files.map(async (f): Promise<[string, string]> => [f, await readFile(f, 'utf8')]))),
    ['output', output],
  ];
  for (const [where, text] of texts) for (const [name, value] of Object.entries(SECRETS)) expect(text.includes(value), `${name} in ${where}`).toBe(false);
}

let root: string;
const servers: ScriptedServer[] = [];
beforeAll(async () => {
  requireBuiltShell();
  root = await mkdtemp(join(tmpdir(), 'waypoint-reach-'));
});
afterAll(async () => {
  killAllLaunched();
  killAllCli();
  for (const server of servers) await server.close();
  await rm(root, { recursive: true, force: true });
});

async function folders(name: string): Promise<{ dataDir: string; workspace: string }> {
  const dataDir = join(root, name, 'data');
  const workspace = join(root, name, 'workspace');
  await mkdir(workspace, { recursive: true });
  await mkdir(dataDir, { recursive: true });
  return { dataDir, workspace };
}

describe('no secret of Waypoint’s is readable by what it starts', () => {
  it('web shell (node out/main/web.js): run_command and an MCP stdio server read no secret from any process', async () => {
    const server = await startScriptedServer({ scenario: probing(true), requireApiKey: SECRETS.ANTHROPIC_API_KEY });
    servers.push(server);
    const { dataDir, workspace } = await folders('web');
    const mcpConfig = join(root, 'web', 'mcp.json');
    await writeFile(mcpConfig, JSON.stringify({ mcpServers: { probe: MCP_SERVER } }));
    const { ANTHROPIC_API_KEY, ...others } = SECRETS;
    const shell = await launch(dataDir, workspace, server.url, ANTHROPIC_API_KEY!, undefined, { env: others, args: ['--mcp-config', mcpConfig] });
    try {
      await expect.poll(() => JSON.stringify(shell.events.filter((e) => e.type === 'mcp_state').at(-1) ?? ''), { timeout: 30_000 }).toContain('"status":"ready"');
      const { id } = (await shell.call('newSession', {})) as { id: string };
      await shell.call('setSettings', { patch: { autoApproveCommands: true } });
      await shell.call('sendMessage', { sessionId: id, text: 'Read every environment' });
      await expect.poll(() => shell.events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle' && server.requests.length >= 2), { timeout: 30_000 }).toBe(true);
    } finally {
      await kill(shell);
    }
    await expectNoSecretAnywhere(server, [dataDir, workspace], shell.output() + JSON.stringify(shell.events), 5);
  }, 90_000);

  // A headless run starts before its MCP servers are ready (they start in the background), so
  // it probes with run_command; the MCP path is the same code as the web shell's above.
  it('waypoint run --json (node out/main/cli.js): the same probes read no secret; stdout stays JSON lines and the exit code 0', async () => {
    const server = await startScriptedServer({ scenario: probing(false), requireApiKey: SECRETS.ANTHROPIC_API_KEY });
    servers.push(server);
    const { dataDir, workspace } = await folders('cli');
    const result = await runCli(['run', 'Read every environment', '--workspace', workspace, '--data-dir', dataDir, '--auto-approve', '--json'], cliEnv(server.url, SECRETS));
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'run_finished', exitCode: 0 });
    await expectNoSecretAnywhere(server, [dataDir, workspace], result.stdout + result.stderr, 4);
  }, 90_000);

  // Without bubblewrap (other systems, or where it is refused) what protects the secrets is the
  // start-up handover alone.
  describe(`without the PID namespace (${ISOLATION_VARIABLE}=off)`, () => {
    const run = async (name: string, command: string[], probes: string[]) => {
      const server = await startScriptedServer({ scenario: probing(false, probes), requireApiKey: SECRETS.ANTHROPIC_API_KEY });
      servers.push(server);
      const { dataDir, workspace } = await folders(name);
      const result = await startCli(['run', 'Read every environment', '--workspace', workspace, '--data-dir', dataDir, '--auto-approve', '--json'], cliEnv(server.url, { ...SECRETS, [ISOLATION_VARIABLE]: 'off' }), command).done;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`${ISOLATION_VARIABLE}=off`)); // said once in the log
      await expectNoSecretAnywhere(server, [dataDir, workspace], result.stdout + result.stderr, probes.length);
    };

    it('bin/waypoint (sh, exec): no process of Waypoint’s holds a secret, so even every /proc/N/environ shows none', async () => {
      await run('sh-launcher', ['sh', resolve('bin/waypoint')], Object.values(PROBES));
    }, 90_000);

    // The launcher that waits still holds them: /proc/N/environ of it is what the PID namespace hides (docs/security.md).
    it('node out/main/cli.js: the parent’s environment (/proc/$PPID/environ, ps eww) shows none', async () => {
      await run('node-relaunch', [process.execPath, CLI_JS], [PROBES.parent, PROBES.ps, PROBES.own]);
    }, 90_000);
  });
});
