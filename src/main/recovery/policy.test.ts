import { describe, expect, it } from 'vitest';
import type { ErrorClass, RecoveryStrategy } from '../../shared/plan';
import { defaultSettings } from '../../shared/settings';
import { failuresSinceFresh, summarizeInput } from './attempts';
import { classifyMessage, classifyToolFailure } from './classify';
import { autoSkipClasses, decideRecovery, type RecoveryInput, type RecoverySettings } from './policy';

const settings: RecoverySettings = { ...defaultSettings(), retryDelayMs: 500 };
const input = (over: Partial<RecoveryInput> = {}): RecoveryInput => ({
  errorClass: 'not_found',
  toolName: 'edit_file',
  message: 'old_text was not found in a.txt.',
  failureCount: 1,
  settings,
  critical: false,
  inPlan: true,
  ...over,
});

describe('classifyToolFailure', () => {
  const cases: [string, Parameters<typeof classifyToolFailure>[0], ErrorClass][] = [
    ['keeps a structured kind', { toolName: 'read_file', group: 'workspace', error: { kind: 'not_found', message: 'x does not exist' } }, 'not_found'],
    ['keeps permission', { toolName: 'write_file', group: 'workspace', error: { kind: 'permission', message: 'denied' } }, 'permission'],
    ['edit_file ambiguity is a parameter problem, not a conflict', { toolName: 'edit_file', group: 'workspace', error: { kind: 'conflict', message: 'old_text occurs 3 times' } }, 'invalid_parameter'],
    ['a conflict elsewhere stays a conflict', { toolName: 'db__insert', group: 'mcp', error: { kind: 'conflict', message: 'row exists' } }, 'conflict'],
    ['run_command timeout message', { toolName: 'run_command', group: 'workspace', error: { kind: 'unknown', message: 'npm test timed out (limit 30 s)' } }, 'timeout'],
    ['MCP unknown refined from its message: not found', { toolName: 'revit__move', group: 'mcp', error: { kind: 'unknown', message: 'Element 12345 does not exist' } }, 'not_found'],
    ['MCP unknown refined: conflict', { toolName: 'revit__column', group: 'mcp', error: { kind: 'unknown', message: 'Column conflicts with existing beam' } }, 'conflict'],
    ['MCP unknown refined: transaction', { toolName: 'revit__wall', group: 'mcp', error: { kind: 'unknown', message: 'Transaction failed to commit' } }, 'transaction_failed'],
    ['MCP unknown refined: invalid', { toolName: 'x__y', group: 'mcp', error: { kind: 'unknown', message: 'Invalid value for level' } }, 'invalid_parameter'],
    ['MCP unknown stays unknown', { toolName: 'x__y', group: 'mcp', error: { kind: 'unknown', message: 'boom' } }, 'unknown'],
  ];
  it.each(cases)('%s', (_name, call, expected) => expect(classifyToolFailure(call)).toBe(expected));

  it.each([
    ['Request timed out', 'timeout'],
    ['EACCES: permission denied', 'permission'],
    ['No such file', 'not_found'],
    ['already exists', 'conflict'],
    ['rollback happened', 'transaction_failed'],
    ['server is unreachable', 'unavailable'],
    ['resource busy, try again', 'transient'],
    ['parameter "x" must be a number', 'invalid_parameter'],
    ['something odd', 'unknown'],
  ] as const)('message %j → %s', (message, expected) => expect(classifyMessage(message)).toBe(expected));
});

describe('decideRecovery: the seed table adapted', () => {
  const table: [ErrorClass, RecoveryStrategy, RegExp][] = [
    ['invalid_parameter', 'retry_with_modification', /read_file the file first/],
    ['not_found', 'refresh_context_and_retry', /read_file the file/],
    ['unavailable', 'retry_with_alternative', /another tool or approach/],
    ['conflict', 'escalate_to_user', /asked the user/],
    ['transaction_failed', 'rollback_and_retry', /rolled back/],
    ['timeout', 'retry_with_modification', /reduce the scope.*timeout_ms/],
    ['transient', 'retry_with_modification', /temporary/],
    ['permission', 'escalate_to_user', /asked the user/],
    ['unknown', 'escalate_to_user', /asked the user/],
  ];
  it.each(table)('%s → %s with a concrete hint', (errorClass, strategy, hint) => {
    const decision = decideRecovery(input({ errorClass }));
    expect(decision.strategy).toBe(strategy);
    expect(decision.hint).toMatch(hint);
    expect(decision.delayMs).toBe(strategy === 'escalate_to_user' ? 0 : 500);
  });

  it('hints are per tool: files, commands, MCP', () => {
    expect(decideRecovery(input({ toolName: 'read_file' })).hint).toMatch(/list_directory or search_files/);
    expect(decideRecovery(input({ toolName: 'run_command', errorClass: 'unavailable' })).hint).toMatch(/program exists/);
    expect(decideRecovery(input({ toolName: 'files__read', errorClass: 'unavailable' })).hint).toMatch(/MCP server is unavailable/);
    expect(decideRecovery(input({ toolName: 'edit_file', errorClass: 'invalid_parameter', message: 'old_text occurs 2 times in a' })).hint).toMatch(/more surrounding lines/);
  });

  it('escalates once a step has failed more than maxRetries times', () => {
    expect(decideRecovery(input({ failureCount: 2 })).strategy).toBe('refresh_context_and_retry');
    const over = decideRecovery(input({ failureCount: 3 }));
    expect(over.strategy).toBe('escalate_to_user');
    expect(over.reason).toBe('Maximum retries (2) exceeded');
    expect(decideRecovery(input({ failureCount: 1, settings: { ...settings, maxRetries: 0 } })).strategy).toBe('escalate_to_user');
    expect(decideRecovery(input({ failureCount: 6, settings: { ...settings, maxRetries: 5 } })).strategy).toBe('escalate_to_user');
    expect(decideRecovery(input({ failureCount: 5, settings: { ...settings, maxRetries: 5 } })).strategy).toBe('refresh_context_and_retry');
  });

  it('outside a plan it never escalates for the count (there is no step to ask about)', () => {
    expect(decideRecovery(input({ inPlan: false, failureCount: 10 })).strategy).toBe('refresh_context_and_retry');
  });

  it('auto-skips non-critical steps for the configured error types only', () => {
    const on = { ...settings, autoSkipNonCritical: true, autoSkipErrorTypes: ['conflict'] };
    expect(decideRecovery(input({ errorClass: 'conflict', settings: on })).strategy).toBe('skip_and_continue');
    expect(decideRecovery(input({ errorClass: 'conflict', settings: on, critical: true })).strategy).toBe('escalate_to_user');
    expect(decideRecovery(input({ errorClass: 'conflict', settings: { ...on, autoSkipNonCritical: false } })).strategy).toBe('escalate_to_user');
    expect(decideRecovery(input({ errorClass: 'not_found', settings: on })).strategy).toBe('refresh_context_and_retry');
    expect(decideRecovery(input({ errorClass: 'timeout', settings: { ...on, autoSkipErrorTypes: ['timeout'] } })).strategy).toBe('skip_and_continue');
    expect(decideRecovery(input({ errorClass: 'conflict', settings: on, inPlan: false })).strategy).toBe('escalate_to_user');
  });

  it('retryDelayMs sets the wait of every retry strategy', () => {
    expect(decideRecovery(input({ settings: { ...settings, retryDelayMs: 0 } })).delayMs).toBe(0);
    expect(decideRecovery(input({ errorClass: 'transaction_failed', settings: { ...settings, retryDelayMs: 1234 } })).delayMs).toBe(1234);
  });

  it('understands the seed names of auto-skip types', () => {
    expect([...autoSkipClasses(['GeometryConflict', 'ElementNotFound', 'TypeNotAvailable', 'Timeout', 'nonsense'])].sort()).toEqual(['conflict', 'not_found', 'timeout', 'unavailable']);
  });
});

describe('attempt bookkeeping', () => {
  const attempt = (outcome: 'retrying' | 'escalated') => ({
    at: '', tool: 't', inputSummary: '', error: 'e', errorClass: 'not_found' as const, strategy: 'refresh_context_and_retry' as const, outcome, durationMs: 1,
  });
  it('counts failures since the last escalation (guidance starts the count afresh)', () => {
    expect(failuresSinceFresh([])).toBe(0);
    expect(failuresSinceFresh([attempt('retrying'), attempt('retrying')])).toBe(2);
    expect(failuresSinceFresh([attempt('retrying'), attempt('retrying'), attempt('escalated')])).toBe(0);
    expect(failuresSinceFresh([attempt('retrying'), attempt('escalated'), attempt('retrying')])).toBe(1);
  });
  it('summarizes inputs in one short line', () => {
    expect(summarizeInput({ path: 'a.txt', content: 'x'.repeat(500) })).toMatch(/^path="a.txt", content="x{60}…"$/);
    expect(summarizeInput({ text: 'abcdefghij' }, 8)).toBe('text="a…');
  });
});
