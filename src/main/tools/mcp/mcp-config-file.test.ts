import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMcpConfigFile, McpConfigError } from './mcp-config-file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-mcp-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('loadMcpConfigFile', () => {
  it("reads Claude Desktop's format", async () => {
    const path = await fileWith(
      'ok.json',
      JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs'] }, web: { url: 'https://example.com/mcp' } } }),
    );
    expect(await loadMcpConfigFile(path)).toEqual({
      fs: { command: 'npx', args: ['-y', 'server-fs'] },
      web: { url: 'https://example.com/mcp' },
    });
  });

  it('explains a missing file, bad JSON and a wrong shape', async () => {
    await expect(loadMcpConfigFile(join(dir, 'missing.json'))).rejects.toThrow(/Cannot read MCP config file/);
    await expect(loadMcpConfigFile(join(dir, 'missing.json'))).rejects.toBeInstanceOf(McpConfigError);
    await expect(loadMcpConfigFile(await fileWith('bad.json', '{nope'))).rejects.toThrow(/is not valid JSON/);
    await expect(loadMcpConfigFile(await fileWith('shape.json', '{"servers": {}}'))).rejects.toThrow(/mcpServers/);
    await expect(loadMcpConfigFile(await fileWith('entry.json', '{"mcpServers": {"x": {"args": []}}}'))).rejects.toThrow(
      /Claude Desktop/,
    );
  });
});
