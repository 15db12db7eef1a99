import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools, OffLimits } from './index';
import { expectFail, expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace, parsedInput } from '../../../../test-support/main/test-workspace';
import { callTool } from '../define-tool';

// Waypoint's own folders inside the workspace (docs/security.md "Waypoint's data folder"), and
// what a dry run says about executable files.

let ws: TempWorkspace;
let data: string;
const ctx = makeContext();

beforeEach(() => {
  ws = makeWorkspace();
  data = path.join(ws.root, '.config', 'Waypoint');
  fs.mkdirSync(path.join(data, 'sessions'), { recursive: true });
  fs.writeFileSync(path.join(data, 'settings.json'), '{}\n');
});
afterEach(() => ws.cleanup());

const toolsWith = (places = [{ path: data, what: "Waypoint's data folder" }]) => createWorkspaceTools(ws.root, new OffLimits(places));

describe('the data folder inside the workspace', () => {
  it('every file tool refuses it (also spelled with .. or ./), before any approval, and changes nothing', async () => {
    const tools = toolsWith();
    const refusals = [
      ['write_file', { path: '.config/Waypoint/settings.json', content: '{"autoApproveEdits":true}' }],
      ['write_file', { path: '.config/Waypoint/sessions/new.jsonl', content: 'x' }],
      ['write_file', { path: 'src/../.config/Waypoint/settings.json', content: 'x' }],
      ['edit_file', { path: './.config/Waypoint/settings.json', old_text: '{}', new_text: '{"a":1}' }],
      ['read_file', { path: '.config/Waypoint/settings.json' }],
      ['list_directory', { path: '.config/Waypoint' }],
      ['search_files', { pattern: '{', path: '.config/Waypoint' }],
      ['run_command', { command: 'ls', cwd: '.config/Waypoint' }],
    ] as const;
    for (const [name, input] of refusals) {
      const tool = findTool(tools, name);
      expect((await tool.precheck!(parsedInput(tool, input)))?.message, name).toMatch(/is inside Waypoint's data folder, which tools can't read or change/);
      expect(expectFail(await callTool(tool, input, ctx))).toMatchObject({ kind: 'permission' });
      expect(tool.describeDryRun(parsedInput(tool, input))).toMatch(/^Cannot run .*Waypoint's data folder/);
    }
    expect(fs.readFileSync(path.join(data, 'settings.json'), 'utf8')).toBe('{}\n');
    expect(fs.readdirSync(path.join(data, 'sessions'))).toEqual([]);
  });

  it('files next to it are ordinary, and a command in the workspace is told that it can reach the data folder', async () => {
    const tools = toolsWith();
    expectOk(await callTool(findTool(tools, 'write_file'), { path: '.config/other/app.conf', content: 'x\n' }, ctx));
    expectOk(await callTool(findTool(tools, 'write_file'), { path: '.config/Waypoint-notes.txt', content: 'x\n' }, ctx));
    expect(findTool(tools, 'run_command').describeDryRun(parsedInput(findTool(tools, 'run_command'), { command: 'make' }))).toMatch(
      /Note: Waypoint's data folder \(.*\.config\/Waypoint\) is inside this workspace; file tools can't touch it, but a command can\./,
    );
    // Without a data folder inside, the command's dry run is as it always was.
    expect(findTool(createWorkspaceTools(ws.root), 'run_command').describeDryRun(parsedInput(findTool(createWorkspaceTools(ws.root), 'run_command'), { command: 'make' }))).not.toMatch(/Note:/);
  });

  it('a workspace the user put inside the data folder is theirs to work in; the data folder as the workspace is refused', async () => {
    const inner = path.join(data, 'projects', 'mine');
    fs.mkdirSync(inner, { recursive: true });
    const own = createWorkspaceTools(inner, new OffLimits([{ path: data, what: "Waypoint's data folder" }]));
    expectOk(await callTool(findTool(own, 'write_file'), { path: 'a.txt', content: 'x\n' }, ctx));
    const whole = createWorkspaceTools(data, new OffLimits([{ path: data, what: "Waypoint's data folder" }]));
    expect(expectFail(await callTool(findTool(whole, 'write_file'), { path: 'settings.json', content: 'x' }, ctx)).message).toMatch(/Waypoint's data folder/);
  });

  it('a place that does not exist yet is refused where it would be', async () => {
    const tools = toolsWith([{ path: path.join(ws.root, 'later', 'waypoint'), what: "Waypoint's data folder" }]);
    expect(expectFail(await callTool(findTool(tools, 'write_file'), { path: 'later/waypoint/settings.json', content: 'x' }, ctx)).kind).toBe('permission');
    expect(fs.existsSync(path.join(ws.root, 'later'))).toBe(false);
  });
});

describe('dry runs of executable files', () => {
  it('write_file and edit_file say a file is executable and stays so; an ordinary file says nothing of it', () => {
    const tools = createWorkspaceTools(ws.root);
    ws.write('deploy.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(path.join(ws.root, 'deploy.sh'), 0o755);
    ws.write('notes.txt', 'hi\n');
    expect(findTool(tools, 'write_file').describeDryRun(parsedInput(findTool(tools, 'write_file'), { path: 'deploy.sh', content: 'rm -rf ~\n' }))).toMatch(
      /^Would overwrite deploy\.sh \(9 bytes\) — deploy\.sh is executable \(mode 755\) and stays so: the new text runs as a program\n/,
    );
    expect(findTool(tools, 'edit_file').describeDryRun(parsedInput(findTool(tools, 'edit_file'), { path: 'deploy.sh', old_text: 'echo hi', new_text: 'curl x | sh' }))).toMatch(
      /^Would edit deploy\.sh — deploy\.sh is executable \(mode 755\)/,
    );
    expect(findTool(tools, 'write_file').describeDryRun(parsedInput(findTool(tools, 'write_file'), { path: 'notes.txt', content: 'x\n' }))).not.toMatch(/executable/);
    expect(findTool(tools, 'edit_file').describeDryRun(parsedInput(findTool(tools, 'edit_file'), { path: 'notes.txt', old_text: 'hi', new_text: 'ho' }))).not.toMatch(/executable/);
  });
});
