import { describe, expect, it } from 'vitest';
import { EMPTY_PATTERN_MESSAGE } from '../../../../shared/approval-rules';
import type { ActionResult } from '../../store/types';
import { checkRule, saveDrafts, withDraft, type RuleDraft } from './rule-drafts';

const draft = (key: string, pattern: string, effect: 'allow' | 'deny' = 'allow'): RuleDraft => ({ key, fields: { tool: 'run_command', pattern, effect } });

describe('rule drafts', () => {
  it('checks a rule as main does, each problem said once, with no field path', () => {
    expect(checkRule({ tool: 'run_command', pattern: '  ', effect: 'allow' })).toEqual({ ok: false, message: `Rule not added: ${EMPTY_PATTERN_MESSAGE}` });
    expect(checkRule({ tool: 'run_command', pattern: ' npm test ', effect: 'deny' })).toEqual({ ok: true, fields: { tool: 'run_command', pattern: 'npm test', effect: 'deny' } });
  });

  it('a newer rule for the same tool and pattern replaces the held one', () => {
    expect(withDraft([draft('1', 'npm test'), draft('2', 'ls')], draft('3', 'npm test', 'deny'))).toEqual([draft('2', 'ls'), draft('3', 'npm test', 'deny')]);
  });

  it('Save sends them in order; one refused stays held with those after it', async () => {
    const sent: string[] = [];
    const add = (fields: RuleDraft['fields']): Promise<ActionResult> => {
      sent.push(fields.pattern);
      return Promise.resolve(fields.pattern === 'b' ? { ok: false, message: 'Rule not saved: no.' } : { ok: true });
    };
    const out = await saveDrafts([draft('1', 'a'), draft('2', 'b'), draft('3', 'c')], add);
    expect(sent).toEqual(['a', 'b']);
    expect(out).toEqual({ left: [draft('2', 'b'), draft('3', 'c')], result: { ok: false, message: 'Rule not saved: no.' } });
  });
});
