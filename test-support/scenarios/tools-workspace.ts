import type { Scenario } from '../scripted-api/scenario';

/**
 * Workspace tools with approvals: Claude edits a file (the approval card shows the diff), and a
 * multi-step task that reads, edits and tests a file in the workspace. The files are created
 * by the test (or by hand for the demo): src/app.js with `const answer = 41;`.
 */

export const APP_JS = "const answer = 41;\nconsole.log('answer is ' + answer);\n";

export const toolsEdit: Scenario = {
  name: 'tools-edit',
  description: 'Claude edits src/app.js (41 → 42) with edit_file; needs approval.',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: "I'll fix the answer.",
      calls: [{ name: 'edit_file', input: { path: 'src/app.js', old_text: 'const answer = 41;', new_text: 'const answer = 42;' } }],
    },
    { kind: 'text', text: 'Done: the answer is 42 now.' },
  ],
};

export const toolsTask: Scenario = {
  name: 'tools-task',
  description: 'Read src/app.js, edit it, run it with node, then write a note: read, edit, command, write.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: 'First, the current code.', calls: [{ name: 'read_file', input: { path: 'src/app.js' } }] },
    {
      kind: 'tool_use',
      text: 'The answer is off by one.',
      calls: [{ name: 'edit_file', input: { path: 'src/app.js', old_text: 'const answer = 41;', new_text: 'const answer = 42;' } }],
    },
    { kind: 'tool_use', text: 'Now I run it.', calls: [{ name: 'run_command', input: { command: 'node src/app.js' } }] },
    { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'NOTES.md', content: '# Notes\n\nThe answer is 42.\n' } }] },
    { kind: 'text', text: 'All set: the program prints 42 and NOTES.md records it.' },
  ],
};

export const toolsMcp: Scenario = {
  name: 'tools-mcp',
  description: 'Claude calls the echo tool of an MCP server named "test" (see test-support/mcp-server).',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: 'Asking the MCP server.', calls: [{ name: 'test__echo', input: { text: 'hello from Claude' } }] },
    { kind: 'text', text: 'The MCP server echoed it back.' },
  ],
};

export const toolsScenarios: Scenario[] = [toolsEdit, toolsTask, toolsMcp];
