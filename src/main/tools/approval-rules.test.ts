import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../../shared/approval-rules';
import { ruleCovers, ruleVerdict, scopeOf } from './approval-rules';
import type { RuleSubject } from './tool';

const rule = (tool: string, pattern: string, extra: Partial<ApprovalRule> = {}): ApprovalRule => ({ id: `${tool}:${pattern}`, tool, pattern, effect: 'allow', createdAt: 't', ...extra });
const command = (line: string): RuleSubject => ({ kind: 'command', command: line });
const path = (rel: string): RuleSubject => ({ kind: 'path', path: rel });
const RUN = { name: 'run_command' };

const plainWord = fc.stringMatching(/^[A-Za-z0-9_./=:@%+,-]{1,12}$/);
const words = fc.array(plainWord, { minLength: 1, maxLength: 6 });
const segment = fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
const relPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));

describe('rules for run_command', () => {
  it('cover exactly their command line, with any spacing between words', () => {
    fc.assert(
      fc.property(words, fc.array(fc.stringMatching(/^[ \t]{1,3}$/), { minLength: 6, maxLength: 6 }), (ws, gaps) => {
        const spaced = ws.map((w, i) => (i ? gaps[i]! + w : w)).join('');
        expect(ruleCovers(rule('run_command', ws.join(' ')), RUN, command(spaced))).toBe(true);
      }),
    );
  });

  it('never as a prefix: one more argument anywhere is not covered (the git diff --output case)', () => {
    fc.assert(
      fc.property(words, plainWord, fc.nat(), (ws, extra, at) => {
        const longer = [...ws];
        longer.splice(at % (ws.length + 1), 0, extra);
        expect(ruleCovers(rule('run_command', ws.join(' ')), RUN, command(longer.join(' ')))).toBe(false);
      }),
    );
    expect(ruleCovers(rule('run_command', 'git diff'), RUN, command('git diff --no-index --output=/outside/file /dev/null /etc/hostname'))).toBe(false);
  });

  it('never a line with shell operators, even an identical one', () => {
    for (const line of ['npm test; rm -rf /', 'npm test && curl x | sh', 'echo $(id)', 'cat a > b']) {
      expect(ruleCovers(rule('run_command', line), RUN, command(line))).toBe(false);
    }
  });

  it('belong to their tool only', () => {
    expect(ruleCovers(rule('run_command', 'ls'), { name: 'other' }, command('ls'))).toBe(false);
    expect(ruleCovers(rule('run_command', 'ls'), { name: 'run_command', server: 'x' }, command('ls'))).toBe(false);
  });
});

describe('rules for file tools', () => {
  it('** covers any path in the workspace, dot files too; a folder glob covers only that folder', () => {
    fc.assert(
      fc.property(relPath, (rel) => {
        expect(ruleCovers(rule('write_file', '**'), { name: 'write_file' }, path(rel))).toBe(true);
        expect(ruleCovers(rule('write_file', 'docs/**'), { name: 'write_file' }, path(`docs/${rel}`))).toBe(true);
        expect(ruleCovers(rule('write_file', 'docs/**'), { name: 'write_file' }, path(`src/${rel}`))).toBe(false);
      }),
    );
    expect(ruleCovers(rule('edit_file', '**'), { name: 'edit_file' }, path('.env'))).toBe(true);
    expect(ruleCovers(rule('edit_file', '**'), { name: 'write_file' }, path('a.txt'))).toBe(false);
    expect(ruleCovers(rule('edit_file', '**'), { name: 'edit_file' }, path('.'))).toBe(false);
    expect(ruleCovers(rule('edit_file', '**'), { name: 'edit_file' }, null)).toBe(false);
  });
});

describe('rules for MCP tools', () => {
  const files = { name: 'files__write', server: 'files', serverTool: 'write' };
  it('cover that tool of that server, by its own name, whatever its API name became', () => {
    const mcp = rule('write', '*', { server: 'files' });
    expect(ruleCovers(mcp, files, { kind: 'call' })).toBe(true);
    expect(ruleCovers(mcp, { ...files, name: 'files__write_2' }, { kind: 'call' })).toBe(true);
    expect(ruleCovers(mcp, { ...files, server: 'other', name: 'other__write' }, { kind: 'call' })).toBe(false);
    expect(ruleCovers(mcp, { ...files, serverTool: 'delete', name: 'files__delete' }, { kind: 'call' })).toBe(false);
    expect(ruleCovers(rule('files__write', '*'), files, { kind: 'call' })).toBe(false);
  });
});

describe('ruleVerdict', () => {
  it('a deny rule wins over any allow rule, in any order', () => {
    const allow = rule('run_command', 'make');
    const deny = rule('run_command', 'make', { id: 'deny', effect: 'deny' });
    fc.assert(
      fc.property(fc.shuffledSubarray([allow, deny, rule('run_command', 'ls')], { minLength: 3, maxLength: 3 }), (rules) => {
        expect(ruleVerdict(rules, RUN, command('make'))?.effect).toBe('deny');
      }),
    );
    expect(ruleVerdict([allow], RUN, command('make'))).toBe(allow);
    expect(ruleVerdict([allow], RUN, command('make install'))).toBeNull();
  });
});

describe('scopeOf', () => {
  it('is the normalised command line, ** for a file tool, * for any other; none for a line with shell operators', () => {
    expect(scopeOf(RUN, command('  npm   test  '))).toEqual({ tool: 'run_command', pattern: 'npm test' });
    expect(scopeOf(RUN, command('npm test | tee log'))).toBeNull();
    expect(scopeOf(RUN, command("echo 'open"))).toBeNull();
    expect(scopeOf({ name: 'write_file' }, path('src/a.ts'))).toEqual({ tool: 'write_file', pattern: '**' });
    expect(scopeOf({ name: 'files__write', server: 'files', serverTool: 'write' }, { kind: 'call' })).toEqual({ tool: 'write', server: 'files', pattern: '*' });
    expect(scopeOf(RUN, null)).toBeNull();
  });

  it('a rule made from a scope covers the call it was made from', () => {
    fc.assert(
      fc.property(words, (ws) => {
        const scope = scopeOf(RUN, command(ws.join('  ')))!;
        expect(ruleCovers({ ...scope, id: 'r', effect: 'allow', createdAt: 't' }, RUN, command(ws.join(' ')))).toBe(true);
      }),
    );
  });
});
