import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from './cli-args';
import { desktopDataDir } from './desktop-data-dir';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-args-'));
  writeFileSync(join(dir, 'file.txt'), 'x');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { HOME: '/home/ada', XDG_CONFIG_HOME: '' } as NodeJS.ProcessEnv;

describe('waypoint command line', () => {
  it('run: the task, the flags and the defaults', () => {
    expect(parseCli(['run', 'Add a README', '--workspace', '.', '--json', '--auto-approve', '--planning-style=wbs'], env, dir)).toEqual({
      kind: 'run',
      args: { task: 'Add a README', workspace: dir, dataDir: desktopDataDir(env), planningStyle: 'wbs', autoApprove: true, json: true, resume: null, answer: null, budgetUsd: null, maxMinutes: null, worktree: false },
    });
    expect(parseCli(['run', '--resume', 'abc', '--answer', 'Use the other file', '--data-dir', 'data'], env, dir)).toMatchObject({
      kind: 'run',
      args: { task: null, workspace: null, dataDir: join(dir, 'data'), resume: 'abc', answer: 'Use the other file' },
    });
    expect(parseCli(['run', 'x', '--workspace', dir], { ...env, WAYPOINT_DATA_DIR: '/srv/waypoint' }, dir)).toMatchObject({ args: { dataDir: '/srv/waypoint' } });
  });

  it('run: --budget-usd and --max-minutes take a figure above 0; anything else is refused in words', () => {
    expect(parseCli(['run', 'x', '--workspace', dir, '--budget-usd', '2.5', '--max-minutes', '30'], env, dir)).toMatchObject({ kind: 'run', args: { budgetUsd: 2.5, maxMinutes: 30 } });
    expect(parseCli(['run', 'x', '--workspace', dir, '--budget-usd', '$4'], env, dir)).toMatchObject({ args: { budgetUsd: 4 } });
    for (const bad of ['0', '-1', 'ten', '', '1e3', 'Infinity']) {
      expect(parseCli(['run', 'x', '--workspace', dir, `--budget-usd=${bad}`], env, dir), bad).toMatchObject({ kind: 'error', message: expect.stringMatching(/^--budget-usd ".*": The budget must be/) });
    }
    expect(parseCli(['run', 'x', '--workspace', dir, '--max-minutes', '0'], env, dir)).toMatchObject({ kind: 'error', message: '--max-minutes "0": The time must be more than 0 minutes.' });
  });

  it('run: --worktree asks for a git worktree for a new run; a resumed chat keeps its folder', () => {
    expect(parseCli(['run', 'x', '--workspace', dir, '--worktree'], env, dir)).toMatchObject({ kind: 'run', args: { worktree: true } });
    expect(parseCli(['run', '--resume', 'abc', '--worktree'], env, dir)).toEqual({ kind: 'error', message: '--worktree is for a new run: a resumed chat keeps the folder it works in.' });
  });

  it('mcp: a data folder and a style; nothing else', () => {
    expect(parseCli(['mcp', '--data-dir', dir, '--planning-style', 'session'], env, dir)).toEqual({ kind: 'mcp', args: { dataDir: dir, planningStyle: 'session' } });
    expect(parseCli(['mcp'], env, dir)).toEqual({ kind: 'mcp', args: { dataDir: desktopDataDir(env), planningStyle: null } });
    expect(parseCli(['mcp', 'extra'], env, dir)).toMatchObject({ kind: 'error', message: expect.stringMatching(/takes no arguments/) });
    expect(parseCli(['mcp', '--workspace', dir], env, dir)).toMatchObject({ kind: 'error', message: expect.stringMatching(/unknown option "--workspace".*waypoint mcp --help/) });
  });

  it('help for each command; every refusal is one sentence naming what to do', () => {
    expect(parseCli(['--help'], env, dir)).toMatchObject({ kind: 'help', text: expect.stringContaining('Usage: waypoint <command>') });
    expect(parseCli(['run', '--help'], env, dir)).toMatchObject({ kind: 'help', text: expect.stringContaining('Exit codes: 0 done') });
    expect(parseCli(['mcp', '--help'], env, dir)).toMatchObject({ kind: 'help', text: expect.stringContaining('Needs no API key') });
    const refusals: Array<[string[], RegExp]> = [
      [[], /say what to do/],
      [['plan'], /unknown command "plan"/],
      [['run', 'x', '--workspace', join(dir, 'file.txt')], /is not a folder/],
      [['run', 'x', '--workspace', dir, '--resume', 'abc'], /give no task with it/],
      [['run', '--resume', ' '], /needs the chat id/],
      [['run', '--resume', 'abc', '--answer', '  '], /--answer is empty/],
      [['run', 'x', '--workspace', dir, '--planning-style', 'Structured'], /unknown planning style "Structured"/],
      [['run', 'x', '--workspace', dir, '--data-dir', ''], /--data-dir needs a folder/],
      [['run', 'x', '--workspace', dir, '--json', '--json=yes'], /does not take an argument/],
    ];
    for (const [argv, message] of refusals) {
      const parsed = parseCli(argv, env, dir);
      expect(parsed.kind, argv.join(' ')).toBe('error');
      expect(parsed.kind === 'error' && parsed.message, argv.join(' ')).toMatch(message);
    }
  });

  it('the commands a refusal suggests run after npm ci: npx waypoint, since no waypoint is on PATH', () => {
    const hints = [['run'], ['run', '-'], ['run', ' '], ['mcp', 'extra'], ['mcp', '--workspace', 'x']].map((argv) => {
      const parsed = parseCli(argv, env, dir);
      return parsed.kind === 'error' ? parsed.message : '';
    });
    for (const hint of hints) expect(hint).toMatch(/npx waypoint (run|mcp)/);
    for (const hint of hints) expect(hint.replace(/npx waypoint/g, '')).not.toMatch(/(^|[\s"])waypoint (run "|mcp --help)/);
  });

  it("the default data folder is the desktop app's: Electron's userData for productName Waypoint", () => {
    expect(desktopDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.config/Waypoint');
    expect(desktopDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/ada')).toBe('/cfg/Waypoint');
    expect(desktopDataDir({}, 'darwin', '/Users/ada')).toBe('/Users/ada/Library/Application Support/Waypoint');
    expect(desktopDataDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ada')).toBe('C:\\Users\\ada\\AppData\\Roaming\\Waypoint');
    expect(desktopDataDir({}, 'win32', 'C:\\Users\\ada')).toBe('C:\\Users\\ada\\AppData\\Roaming\\Waypoint');
    // As the app does (electron/main.ts), WAYPOINT_DATA_DIR wins.
    expect(desktopDataDir({ WAYPOINT_DATA_DIR: '/tmp/w' }, 'linux', '/home/ada')).toBe('/tmp/w');
  });
});

describe('the data folder of waypoint run and waypoint mcp', () => {
  it.each([['run', 'x', '--workspace', '/tmp'], ['mcp']])('%s refuses /proc/self with one line, before anything starts', (...command) => {
    const parsed = parseCli([...command, '--data-dir', '/proc/self'], {}, '/');
    expect(parsed).toMatchObject({ kind: 'error', message: expect.stringMatching(/"\/proc\/self" is inside \/proc, a system folder/) });
  });
});
