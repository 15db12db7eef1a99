import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

// `waypoint mcp` serves the chats, plans and logs without the conversation loop (issue 22): no
// file of src/main/agent is in its module graph, type-only imports included (they are what
// would make the loop's shape leak into the planning server again).

/** Every src/ file the entry reaches, as dependency-cruiser follows imports (types counted, as in .dependency-cruiser.cjs). */
async function reachedFrom(entry: string): Promise<string[]> {
  const result = await cruise(
    [entry],
    { tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, tsConfig: { fileName: 'tsconfig.json' } },
    { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, not modules');
  return result.output.modules.map((m) => m.source).filter((source) => source.startsWith('src/'));
}

describe('waypoint mcp without the loop', () => {
  it('imports no file of src/main/agent, yet reaches the chats, the plan engine and the logs', async () => {
    const files = await reachedFrom('src/main/cli/mcp/mcp-command.ts');
    expect(files.filter((f) => f.startsWith('src/main/agent/'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['src/main/chats/chats.ts', 'src/main/plan/plan-service.ts', 'src/main/store/chat-logs.ts']));
  }, 120_000);

  it('the same look at the app finds the loop (so the check above can see agent files)', async () => {
    const files = await reachedFrom('src/main/app/services.ts');
    expect(files).toContain('src/main/agent/loop/run-loop.ts');
  }, 120_000);
});
