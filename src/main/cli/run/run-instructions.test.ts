import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, killAllCli, requireBuiltCli, runCli } from '../../../../test-support/main/cli-harness';
import { useCliTestWorld } from '../../../../test-support/main/cli-test-world';

// `waypoint run` builds its requests through the same services as the windows: the workspace's
// AGENTS.md and the skills (the workspace's and the data folder's) are in its system prompt, and
// load_skill answers (issue 28).
const world = useCliTestWorld('waypoint-cli-skills-', {
  name: 'cli-skills',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'load_skill', input: { name: 'house-style' } }] },
    { kind: 'text', text: 'Styled.' },
  ],
  onExhausted: 'echo',
});

beforeAll(() => requireBuiltCli());
afterEach(() => killAllCli());

describe('waypoint run: instructions and skills', { timeout: 60_000 }, () => {
  it("sends the workspace's AGENTS.md and the skill list, and load_skill returns the skill's body", async () => {
    const { workspace, dataDir, api } = world;
    writeFileSync(join(workspace, 'AGENTS.md'), 'Headless runs follow this too.');
    mkdirSync(join(dataDir, 'skills/house-style'), { recursive: true });
    writeFileSync(join(dataDir, 'skills/house-style/SKILL.md'), '---\nname: house-style\ndescription: The house writing style.\n---\nWrite short sentences.\n');
    const from = api.requests.length;

    const result = await runCli(['run', 'Write the intro', '--workspace', workspace, '--data-dir', dataDir], cliEnv(api.url));
    expect(result.code, result.stderr).toBe(0);

    const [first, second] = api.requests.slice(from).map((r) => r.body as { system: Array<{ text: string }>; messages: Array<{ content: unknown }> });
    const system = first!.system.map((b) => b.text).join('\n');
    expect(system).toContain('## AGENTS.md\n\nHeadless runs follow this too.');
    expect(system).toContain('- house-style: The house writing style.');
    expect(JSON.stringify(second!.messages.at(-1)!.content)).toContain('Write short sentences.');
  });
});
