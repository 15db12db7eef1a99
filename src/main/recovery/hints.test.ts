import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from '../tools/workspace';
import { hintFor } from './hints';
import { callTool } from '../tools/define-tool';

// The hint names the fix for what the error is about: a bad line range is not a path problem,
// although "read_file" (in every message of that tool) contains the word "file".

const root = mkdtempSync(join(tmpdir(), 'waypoint-hints-'));
writeFileSync(join(root, 'report.txt'), 'one\ntwo\nthree\n');
const tools = createWorkspaceTools(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The real error of a real failing call, and the hint Claude would get for it. */
async function hintOf(toolName: string, input: unknown): Promise<{ message: string; hint: string }> {
  const tool = tools.find((t) => t.name === toolName)!;
  const outcome = await callTool(tool, input, { signal: new AbortController().signal } as never);
  if (outcome.ok) throw new Error(`${toolName} unexpectedly succeeded`);
  const { kind, message } = outcome.error;
  expect(kind).toBe('invalid_parameter');
  return { message, hint: hintFor('retry_with_modification', { toolName, message, errorClass: kind }) };
}

describe('parameter hints name the fix for what went wrong', () => {
  it.each([
    ['start_line 0', { path: 'report.txt', start_line: 0, end_line: 2 }],
    ['a range past the end', { path: 'report.txt', start_line: 9 }],
    ['end_line before start_line', { path: 'report.txt', start_line: 3, end_line: 1 }],
  ])('read_file with %s → a line-range fix, not a path fix', async (_name, input) => {
    const { message, hint } = await hintOf('read_file', input);
    expect(message).toMatch(/start_line|end_line/);
    expect(hint).toMatch(/lines count from 1, end_line >= start_line/);
    expect(hint).not.toMatch(/path relative to the workspace root/);
  });

  it.each([
    ['a folder given to read_file', 'read_file', { path: '.' }],
    ['a file given to list_directory', 'list_directory', { path: 'report.txt' }],
    ['a Windows drive path', 'read_file', { path: 'C:\\Windows\\x.txt' }],
  ])('%s → the path fix', async (_name, toolName, input) => {
    const { hint } = await hintOf(toolName, input);
    expect(hint).toMatch(/path relative to the workspace root/);
    expect(hint).not.toMatch(/lines count from 1/);
  });

  it('a schema error still asks to match the schema', async () => {
    const { hint } = await hintOf('read_file', { path: 'report.txt', start_line: 'one' });
    expect(hint).toMatch(/match the tool input schema/);
  });
});
