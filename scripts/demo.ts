// `npm run demo`: the web shell against the repo's scripted Messages-API server playing the
// showcase scenario, so a newcomer can watch a plan run live without an API key.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { scenarios } from '../test-support/scenarios/index';

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
  console.log(`\nDemo: scripted Claude plays "${scenario.name}". Open the URL above and send any message.`);
});

const stop = async () => {
  shell.kill('SIGTERM');
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
shell.on('exit', async (code) => {
  await server.close();
  process.exit(code ?? 0);
});
