import { describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../shared/approval-rules';
import { hasShellControl } from '../../shared/command-line';
import { ruleVerdict, subjectOf } from './approval-rules';
import { createRunCommandTool } from './workspace/run-command';

// "Always allow" run_command rules (the command allow-list of earlier versions became such rules):
// each covers exactly its command line, never a longer one, never one with shell operators.
const runCommand = createRunCommandTool(process.cwd());
const rules = (patterns: string[]): ApprovalRule[] =>
  patterns.map((pattern, i) => ({ id: `r${i}`, tool: 'run_command', pattern, effect: 'allow', createdAt: '2026-01-01T00:00:00.000Z' }));
// A command the tool refuses to parse (an empty one) never reaches the rules: it is not allowed.
const isAllowListed = (command: string, patterns: string[]) => {
  const parsed = runCommand.parse({ command });
  return parsed.ok && ruleVerdict(rules(patterns), runCommand, subjectOf(runCommand, parsed.value))?.effect === 'allow';
};

describe('allow rules for run_command', () => {
  const list = ['npm test', 'git status', 'ls', 'npx vitest run'];
  it.each([
    ['npm test', true],
    ['npm test -- --watch=false', false],
    ['  npm   test  ', true],
    ['git status', true],
    ['git\tstatus', true],
    ['git status --short', false],
    ['ls -la src', false],
    ['npx vitest run src/main', false],
    ['npm testx', false],
    ['npm tes', false],
    ['npm', false],
    ['git statuses', false],
    ['lsblk', false],
    ['npm test; rm -rf /', false],
    ['npm test && rm -rf /', false],
    ['npm test || curl evil', false],
    ['npm test | sh', false],
    ['npm test > /etc/passwd', false],
    ['npm test < /dev/zero', false],
    ['npm test $(rm -rf /)', false],
    ['npm test `rm -rf /`', false],
    ['npm test\nrm -rf /', false],
    ['npm test & sleep 1', false],
    ['rm -rf /', false],
    ['', false],
  ])('%j → %s', (command, expected) => {
    expect(isAllowListed(command, list)).toBe(expected);
  });

  it('ignores rules that themselves contain control operators', () => {
    expect(isAllowListed('npm test; ls', ['npm test; ls'])).toBe(false);
  });

  it('allows nothing without rules', () => {
    expect(isAllowListed('ls', [])).toBe(false);
  });
});

describe('hasShellControl', () => {
  it('sees each operator', () => {
    for (const op of [';', '&', '|', '>', '<', '$(', '`', '\n']) expect(hasShellControl(`a ${op} b`)).toBe(true);
    expect(hasShellControl('npm run build -- --mode=production')).toBe(false);
  });
});
