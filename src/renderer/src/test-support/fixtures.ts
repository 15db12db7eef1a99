import type { Plan, PlanStep } from '../../../shared/plan';
import { defaultSettings, type SettingsView } from '../../../shared/settings';
import type { SessionSummary } from '../../../shared/transcript';

const T = '2025-01-01T00:00:00.000Z';

export function step(id: number, title: string, status: PlanStep['status'] = 'pending', extra: Partial<PlanStep> = {}): PlanStep {
  return { id, title, status, dependsOn: [], notes: [], attempts: [], ...extra };
}

/** A plan whose summary is computed from its steps, as the engine does. */
export function plan(steps: PlanStep[], extra: Partial<Plan> = {}): Plan {
  const count = (s: PlanStep['status']) => steps.filter((x) => x.status === s).length;
  const completed = count('completed');
  return {
    id: 'plan-1',
    dialect: 'structured',
    goal: 'Ship the feature',
    status: 'active',
    steps,
    version: 1,
    createdAt: T,
    updatedAt: T,
    summary: {
      total: steps.length,
      completed,
      in_progress: count('in_progress'),
      pending: count('pending'),
      failed: count('failed'),
      skipped: count('skipped'),
      percent: steps.length ? Math.round((100 * completed) / steps.length) : 0,
    },
    ...extra,
  };
}

export function session(id: string, title: string, updatedAt = T): SessionSummary {
  return { id, title, createdAt: T, updatedAt };
}

export function settingsView(hasApiKey = true): SettingsView {
  return { settings: defaultSettings(), apiKey: { hasApiKey, source: hasApiKey ? 'settings' : 'none' } };
}
