import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalRuleFields, describeRule, EMPTY_PATTERN_MESSAGE } from './approval-rules';
import { answerProblem, QuestionAnswer } from './prompts';

const tools = fc.constantFrom('run_command', 'write_file', 'edit_file');

describe('ApprovalRuleFields', () => {
  it('refuses an empty or blank pattern for every tool, with the message that says what a pattern is', () => {
    fc.assert(
      fc.property(tools, fc.stringMatching(/^[ \t\n]{0,5}$/), fc.constantFrom('allow', 'deny'), (tool, pattern, effect) => {
        const parsed = ApprovalRuleFields.safeParse({ tool, pattern, effect });
        expect(parsed.success).toBe(false);
        // Said once: the words reach the Settings dialog as they are.
        expect(parsed.error!.issues.map((i) => i.message)).toEqual([EMPTY_PATTERN_MESSAGE]);
      }),
    );
  });

  it('takes a plain command line and workspace paths', () => {
    for (const fields of [
      { tool: 'run_command', pattern: 'npm test', effect: 'allow' },
      { tool: 'run_command', pattern: "git commit -m 'a b'", effect: 'deny' },
      { tool: 'write_file', pattern: '**', effect: 'allow' },
      { tool: 'edit_file', pattern: 'src/**/*.ts', effect: 'deny' },
      { tool: 'write', server: 'files', pattern: '*', effect: 'allow' },
    ]) {
      expect(ApprovalRuleFields.safeParse(fields).success, JSON.stringify(fields)).toBe(true);
    }
  });

  it('refuses what could never match: shell operators, open quotes, paths outside the workspace; and unknown keys', () => {
    const refused = [
      { tool: 'run_command', pattern: 'npm test; rm -rf /', effect: 'allow' },
      { tool: 'run_command', pattern: 'echo "open', effect: 'allow' },
      { tool: 'write_file', pattern: '/etc/passwd', effect: 'deny' },
      { tool: 'write_file', pattern: 'a/../../b', effect: 'allow' },
      { tool: 'edit_file', pattern: 'C:/x', effect: 'allow' },
      { tool: 'run_command', pattern: 'ls', effect: 'allow', extra: 1 },
      { tool: '', pattern: 'ls', effect: 'allow' },
      { tool: 'run_command', pattern: 'ls', effect: 'maybe' },
    ];
    for (const fields of refused) expect(ApprovalRuleFields.safeParse(fields).success, JSON.stringify(fields)).toBe(false);
  });

  it('refuses an allow rule for git\'s own files (they always ask, so it would never apply); a deny rule for them is kept', () => {
    for (const pattern of ['.git/**', '.git/config', 'sub/.GIT/hooks/*', '**/.git/**']) {
      const parsed = ApprovalRuleFields.safeParse({ tool: 'write_file', pattern, effect: 'allow' });
      expect(parsed.success, pattern).toBe(false);
      expect(parsed.error!.issues[0]!.message).toMatch(/always ask/);
      expect(ApprovalRuleFields.safeParse({ tool: 'edit_file', pattern, effect: 'deny' }).success).toBe(true);
    }
    expect(ApprovalRuleFields.safeParse({ tool: 'write_file', pattern: '.github/**', effect: 'allow' }).success).toBe(true);
    expect(ApprovalRuleFields.safeParse({ tool: 'write_file', pattern: '.gitignore', effect: 'allow' }).success).toBe(true);
  });

  it('names the tool and the command or path in one line', () => {
    expect(describeRule({ tool: 'run_command', pattern: 'npm test', effect: 'allow' })).toBe('Always allow run_command: npm test');
    expect(describeRule({ tool: 'write_file', pattern: '**', effect: 'allow' })).toBe('Always allow write_file: any path in the workspace');
    expect(describeRule({ tool: 'edit_file', pattern: '.env', effect: 'deny' })).toBe('Never allow edit_file: .env');
    expect(describeRule({ tool: 'write', server: 'files', pattern: '*', effect: 'allow' })).toBe('Always allow write (MCP server files): every call');
  });
});

describe('answers to a question from Claude', () => {
  it('are kept verbatim; blank ones and ones over the limit are refused', () => {
    expect(QuestionAnswer.parse('  two spaces  ')).toBe('  two spaces  ');
    expect(QuestionAnswer.safeParse(' \n ').success).toBe(false);
    expect(QuestionAnswer.safeParse('x'.repeat(20_001)).success).toBe(false);
  });

  it('must be an offered option unless typed answers are taken', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 2, maxLength: 6 }), fc.string({ minLength: 1 }), (options, typed) => {
        for (const option of options) expect(answerProblem({ options, allowText: false }, option)).toBeNull();
        expect(answerProblem({ options, allowText: true }, typed)).toBeNull();
        expect(answerProblem({ options: [], allowText: false }, typed)).toBeNull();
        if (!options.includes(typed)) expect(answerProblem({ options, allowText: false }, typed)).toMatch(/^Claude asked for one of: /);
      }),
    );
  });
});
