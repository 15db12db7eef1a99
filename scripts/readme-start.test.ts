import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenarios } from '../test-support/scenarios/index';
import { DEMO_FILES } from './demo-workspace';

// The README's start section stays true: the Node it names is what package.json and the start
// check use, and every demo scenario it points to exists and gets the files it says.

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { engines: { node: string } };

describe('README: running Waypoint', () => {
  it('names the Node the desktop app needs, as engines does', () => {
    const minimum = /^>=(\d+)\.(\d+)\.0$/.exec(pkg.engines.node);
    expect(minimum).not.toBeNull();
    expect(readme).toContain(`needs **Node ${minimum![1]}.${minimum![2]}\nor newer**`);
  });

  it('points at demo scenarios that exist, with the files the demo puts in the workspace', () => {
    const rows = [...readme.matchAll(/`npm run demo -- --scenario=([\w-]+)` \| ([^|]+) \|/g)];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const [, name, holds] of rows) {
      expect(scenarios[name!], name).toBeDefined();
      const files = [...holds!.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(files, name).toEqual(Object.keys(DEMO_FILES[name!] ?? {}));
    }
    for (const name of readme.matchAll(/`(recovery-escalation-\w+)`/g)) expect(scenarios[name[1]!]).toBeDefined();
  });

  it('shows how to start the scripted server with a scenario that exists', () => {
    const command = /npx tsx test-support\/scripted-api\/cli\.ts --scenario ([\w-]+) --port 0/.exec(readme);
    expect(command).not.toBeNull();
    expect(scenarios[command![1]!]).toBeDefined();
  });
});
