import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/main/cli/cli-args';

// The README's Headless section stays true: its commands and the MCP config parse as the CLI
// parses them, and its exit-code table is the one the CLI documents.

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const section = readme.slice(readme.indexOf('## Headless'), readme.indexOf('## Test it'));

describe('README: Headless', () => {
  it('the Claude Desktop / Claude Code config starts `waypoint mcp` with options it takes', () => {
    const json = /```json\n([\s\S]+?)```/.exec(section)![1]!;
    const config = JSON.parse(json) as { mcpServers: { waypoint: { command: string; args: string[] } } };
    const { command, args } = config.mcpServers.waypoint;
    expect(command).toBe('node');
    expect(args[0]).toMatch(/out\/main\/cli\.js$/);
    expect(parseCli(args.slice(1))).toMatchObject({ kind: 'mcp', args: { dataDir: '/home/you/.config/Waypoint' } });
    const claudeCode = /`claude mcp add waypoint -- node \S+cli\.js (mcp [^`]+)`/.exec(section)![1]!;
    expect(parseCli(claudeCode.split(' '))).toMatchObject({ kind: 'mcp' });
  });

  it('lists every exit code once, and every run option the CLI has', () => {
    const codes = [...section.matchAll(/^\| ([0-4]) \|/gm)].map((m) => Number(m[1]));
    expect(codes.sort()).toEqual([0, 1, 2, 3, 4]);
    for (const option of ['--workspace', '--data-dir', '--planning-style', '--auto-approve', '--json', '--resume', '--answer']) expect(section).toContain(option);
  });
});
