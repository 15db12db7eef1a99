import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desktopDataDir as cliDataDir } from '../cli/desktop-data-dir';
import { DEFAULT_PORT, HELP_TEXT, parseCliOptions } from './cli-options';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-cli-'));
  await writeFile(join(dir, 'mcp.json'), '{"mcpServers":{}}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('parseCliOptions', () => {
  it('uses friendly defaults when nothing is given', () => {
    expect(parseCliOptions([], { XDG_CONFIG_HOME: '/xdg' }, dir)).toEqual({
      kind: 'run',
      options: { port: DEFAULT_PORT, dataDir: '/xdg/Waypoint', workspace: null, mcpConfigPath: null, dataDirIsDefault: true },
    });
  });

  it('reads options from the command line (both spellings), resolving paths against cwd', () => {
    const parsed = parseCliOptions(['--port', '0', '--data-dir=data', '--workspace', dir, '--mcp-config', 'mcp.json'], {}, dir);
    expect(parsed).toEqual({
      kind: 'run',
      options: { port: 0, dataDir: join(dir, 'data'), workspace: dir, mcpConfigPath: join(dir, 'mcp.json'), dataDirIsDefault: false },
    });
  });

  it('falls back to the environment, and the command line wins over it', () => {
    const env = { WAYPOINT_PORT: '5000', WAYPOINT_DATA_DIR: '/d', WAYPOINT_WORKSPACE: dir, WAYPOINT_MCP_CONFIG: join(dir, 'mcp.json') };
    expect(parseCliOptions([], env, '/')).toEqual({
      kind: 'run',
      options: { port: 5000, dataDir: '/d', workspace: dir, mcpConfigPath: join(dir, 'mcp.json'), dataDirIsDefault: false },
    });
    const parsed = parseCliOptions(['--port', '0'], env, '/');
    expect(parsed.kind === 'run' && parsed.options.port).toBe(0);
  });

  it('explains bad options', () => {
    const message = (argv: string[], env = {}) => {
      const parsed = parseCliOptions(argv, env, dir);
      return parsed.kind === 'error' ? parsed.message : `not an error: ${parsed.kind}`;
    };
    expect(message(['--port', 'abc'])).toMatch(/--port must be a port number from 0 to 65535/);
    expect(message(['--port', '70000'])).toMatch(/port number/);
    expect(message(['--port', '-1'])).toMatch(/port number/);
    expect(message([], { WAYPOINT_PORT: 'x' })).toMatch(/WAYPOINT_PORT must be a port number/);
    expect(message(['--port'])).toBe('--port needs a value.');
    expect(message(['--port', '--data-dir', 'x'])).toBe('--port needs a value.');
    expect(message(['--frobnicate'])).toMatch(/Unknown option "--frobnicate"/);
    expect(message(['--workspace', join(dir, 'missing')])).toMatch(/Workspace folder ".*missing" does not exist/);
    expect(message(['--workspace', join(dir, 'mcp.json')])).toMatch(/not a folder/);
    expect(message(['--mcp-config', join(dir, 'nope.json')])).toMatch(/MCP config file .* does not exist/);
  });

  it('shows help', () => {
    const parsed = parseCliOptions(['--port', '1', '--help'], {}, dir);
    expect(parsed.kind).toBe('help');
    expect(parsed.kind === 'help' && parsed.text).toMatch(/--data-dir DIR/);
  });

  it('keeps its data in the desktop app\'s folder by default, as waypoint run does', () => {
    // One default for the app, the web shell and the CLI: a chat made in one shows in the others.
    const env = { XDG_CONFIG_HOME: join(dir, 'cfg') };
    const parsed = parseCliOptions([], env, dir);
    expect(parsed.kind === 'run' && parsed.options.dataDir).toBe(join(dir, 'cfg', 'Waypoint'));
    expect(parsed.kind === 'run' && parsed.options.dataDir).toBe(cliDataDir(env));
    expect(HELP_TEXT).toContain(`default: the desktop app's, ${cliDataDir(process.env)}`);
  });
});
