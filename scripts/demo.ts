// `npm run demo`: the web shell against the repo's scripted Messages-API server playing the
// showcase scenario, so a newcomer can watch a plan run live without an API key.
// `--scenario=NAME` plays another one, with the files it works on put in the demo's workspace.
// The demo's data and workspace folders are temporary: removed on exit, Ctrl+C or SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { scenarios } from '../test-support/scenarios/index';
import { seedSettings, seedWorkspace } from './demo-workspace';

const scenarioName = process.argv.find((a) => a.startsWith('--scenario='))?.split('=')[1] ?? 'showcase';
const scenario = scenarios[scenarioName];
if (!scenario) {
  console.error(`Unknown scenario "${scenarioName}". Known: ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}

// A pause before each reply, so a person can watch the plan move.
const server = await startScriptedServer({ scenario: { ...scenario, latencyMs: scenario.latencyMs ?? 900, onExhausted: 'echo' } });
const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-demo-'));
const workspace = mkdtempSync(join(tmpdir(), 'waypoint-demo-ws-'));
// Runs last, whatever ends the demo; synchronous, as an 'exit' handler must be.
process.on('exit', () => {
  for (const dir of [dataDir, workspace]) rmSync(dir, { recursive: true, force: true });
});
const seeded = seedWorkspace(workspace, scenarioName);
seedSettings(dataDir, scenarioName);
const passthrough = process.argv.slice(2).filter((a) => !a.startsWith('--scenario='));

const shell = spawn(
  process.execPath,
  [resolve('out/main/web.js'), '--data-dir', dataDir, '--workspace', workspace, ...passthrough],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    // A placeholder key: the scripted server accepts any key and Claude is never contacted.
    env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'demo-key-scripted-server' },
  },
);
shell.stdout!.pipe(process.stdout);
shell.stdout!.once('data', () => {
  const files = seeded.length ? ` The workspace holds ${seeded.join(', ')}.` : '';
  console.log(`\nDemo: scripted Claude plays "${scenario.name}".${files} Open the URL above and send any message.`);
});

const shellExited = new Promise<number>((done) => shell.once('exit', (code) => done(code ?? 0)));
let stopping = false;
async function finish(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // The shell writes its logs on the way out: wait for it before its folders go.
  if (shell.exitCode === null && shell.signalCode === null) shell.kill('SIGTERM');
  await shellExited;
  await server.close();
  process.exit(code);
}
process.on('SIGINT', () => void finish(0));
process.on('SIGTERM', () => void finish(0));
void shellExited.then((code) => finish(code));
