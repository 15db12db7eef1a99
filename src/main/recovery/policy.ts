import type { ErrorClass, RecoveryStrategy } from '../../shared/plan';
import type { Settings } from '../../shared/settings';
import { hintFor } from './hints';

/**
 * The recovery policy (docs/contract.md §3, seed P4-06's AnalyzeFailure table adapted to files,
 * commands and MCP tools). Pure: a failure in, a decision out.
 */

export type RecoverySettings = Pick<Settings, 'maxRetries' | 'retryDelayMs' | 'autoSkipNonCritical' | 'autoSkipErrorTypes'>;

export interface RecoveryInput {
  errorClass: ErrorClass;
  toolName: string;
  message: string;
  /** Failures of this step since it last started afresh, this one included (from 1). */
  failureCount: number;
  settings: RecoverySettings;
  /** High-priority and verification steps are never skipped automatically. */
  critical: boolean;
  /** Outside a plan there is no step to skip or escalate: the hint is all there is. */
  inPlan: boolean;
}

export interface RecoveryDecision {
  strategy: RecoveryStrategy;
  /** Why, in a few words, for the attempt log. */
  reason: string;
  /** What Claude should do differently; goes into the tool_result. */
  hint: string;
  /** Wait before handing the result back (retryDelayMs for retries, 0 otherwise). */
  delayMs: number;
}

const BY_CLASS: Record<ErrorClass, { strategy: RecoveryStrategy; reason: string }> = {
  invalid_parameter: { strategy: 'retry_with_modification', reason: 'Invalid parameter' },
  not_found: { strategy: 'refresh_context_and_retry', reason: 'Referenced file or item not found' },
  unavailable: { strategy: 'retry_with_alternative', reason: 'Tool or resource unavailable' },
  conflict: { strategy: 'escalate_to_user', reason: 'Conflict that is not auto-skippable' },
  transaction_failed: { strategy: 'rollback_and_retry', reason: 'Change failed part-way' },
  timeout: { strategy: 'retry_with_modification', reason: 'Operation timed out' },
  transient: { strategy: 'retry_with_modification', reason: 'Temporary failure' },
  permission: { strategy: 'escalate_to_user', reason: 'Permission denied' },
  unknown: { strategy: 'escalate_to_user', reason: 'Unknown error' },
};

/** Seed names ("GeometryConflict", "ElementNotFound") and ours ("conflict", "not_found") both work. */
const ALIASES: Record<string, ErrorClass> = {
  geometryconflict: 'conflict',
  elementnotfound: 'not_found',
  typenotavailable: 'unavailable',
  invalidparameter: 'invalid_parameter',
  transactionfailed: 'transaction_failed',
};

export function autoSkipClasses(types: readonly string[]): Set<ErrorClass> {
  const out = new Set<ErrorClass>();
  for (const raw of types) {
    const key = raw.toLowerCase().replace(/[^a-z]/g, '');
    const alias = ALIASES[key];
    if (alias) out.add(alias);
    for (const cls of Object.keys(BY_CLASS) as ErrorClass[]) if (cls.replace(/_/g, '') === key) out.add(cls);
  }
  return out;
}

export function decideRecovery(input: RecoveryInput): RecoveryDecision {
  const { settings, errorClass } = input;
  const retryDelay = settings.retryDelayMs;
  const decide = (strategy: RecoveryStrategy, reason: string): RecoveryDecision => ({
    strategy,
    reason,
    hint: hintFor(strategy, input),
    delayMs: strategy === 'escalate_to_user' || strategy === 'skip_and_continue' ? 0 : retryDelay,
  });

  if (input.inPlan && input.failureCount > settings.maxRetries) {
    return decide('escalate_to_user', `Maximum retries (${settings.maxRetries}) exceeded`);
  }
  const skippable = settings.autoSkipNonCritical && !input.critical && autoSkipClasses(settings.autoSkipErrorTypes).has(errorClass);
  if (input.inPlan && skippable) return decide('skip_and_continue', `${BY_CLASS[errorClass].reason}; auto-skipped (non-critical step)`);
  const row = BY_CLASS[errorClass];
  return decide(row.strategy, row.reason);
}
