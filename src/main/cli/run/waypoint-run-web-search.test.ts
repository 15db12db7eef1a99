import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, killAllCli, requireBuiltCli, runCli } from '../../../../test-support/main/cli-harness';
import { useCliTestWorld } from '../../../../test-support/main/cli-test-world';

/**
 * `waypoint run` with the data folder's Settings "Web search" on: the built CLI's requests offer
 * the API's web_search server tool, and a search the API makes is sent back as it came (the
 * scripted API refuses anything else), as in the app (docs/contract.md "Web search").
 */
const world = useCliTestWorld('waypoint-cli-search-', { name: 'echo', turns: [], onExhausted: 'echo' });

beforeAll(() => requireBuiltCli());
afterEach(() => killAllCli());

describe('waypoint run: web search', { timeout: 60_000 }, () => {
  it("offers web_search per the data folder's settings and goes on after a search", async () => {
    const { api, dataDir, workspace } = world;
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ webSearch: true, webSearchMaxUses: 4, agenticMode: false }));
    api.setScenario({
      name: 'cli-search',
      turns: [
        { kind: 'web_search', searches: [{ query: 'node 20', results: [{ title: 'Node 20', url: 'https://nodejs.org/', text: 'Node 20 is out.' }] }], answer: [{ text: 'Node 20 is out.', cite: [{ search: 0, result: 0 }] }], delayMs: 0 },
      ],
      onExhausted: 'echo',
    });
    const result = await runCli(['run', 'Is Node 20 out?', '--workspace', workspace, '--data-dir', dataDir], cliEnv(api.url));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('Node 20 is out.');
    expect(api.invalid).toEqual([]);
    const tools = (api.requests[0]!.body as { tools?: Array<Record<string, unknown>> }).tools ?? [];
    expect(tools.at(-1)).toMatchObject({ type: 'web_search_20250305', name: 'web_search', max_uses: 4 });
  });
});
