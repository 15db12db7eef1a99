import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { scenarios } from '../scenarios/index';
import type { Scenario } from './scenario';
import { startScriptedServer } from './server';

/**
 * `npx tsx test-support/scripted-api/cli.ts --scenario NAME|FILE.json --port N`
 * Prints exactly one line, `scripted-api listening on http://127.0.0.1:PORT`, and runs until
 * SIGINT/SIGTERM.
 */

function loadScenario(nameOrFile: string): Scenario {
  const named = scenarios[nameOrFile];
  if (named) return named;
  if (nameOrFile.endsWith('.json')) {
    const parsed = JSON.parse(readFileSync(nameOrFile, 'utf8')) as Scenario;
    if (!Array.isArray(parsed.turns)) throw new Error(`${nameOrFile}: a scenario needs a "turns" array.`);
    return parsed;
  }
  throw new Error(`Unknown scenario "${nameOrFile}". Known: ${Object.keys(scenarios).join(', ')}; or pass a .json file.`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { scenario: { type: 'string', default: 'echo' }, port: { type: 'string', default: '0' } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got "${values.port}".`);
  const server = await startScriptedServer({ scenario: loadScenario(values.scenario), port });
  process.stdout.write(`scripted-api listening on ${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`scripted-api: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
