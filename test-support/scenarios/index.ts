import type { Scenario } from '../scripted-api/scenario';
import { basicScenarios } from './basic';
import { plansChecklist } from './plans-checklist';
import { plansSession } from './plans-session';
import { plansShowcase } from './plans-showcase';
import { plansStructured } from './plans-structured';
import { plansWbs } from './plans-wbs';
import { planFirst } from './plan-first';
import { toolsScenarios } from './tools-workspace';
import { recoveryScenarios } from './recovery-escalation';
import { recoveryPatternScenarios } from './recovery-patterns';
import { questionScenarios } from './questions';
import { rerunScenarios } from './reruns';

/**
 * Every named scenario, for the CLI (`--scenario NAME`) and e2e fixtures. To add a group, import
 * its array and spread it into `all` below.
 */
const all: Scenario[] = [
  ...basicScenarios,
  plansStructured,
  plansChecklist,
  plansWbs,
  plansSession,
  plansShowcase,
  planFirst,
  ...toolsScenarios,
  ...recoveryScenarios,
  ...recoveryPatternScenarios,
  ...questionScenarios,
  ...rerunScenarios,
  // `npm run demo` plays this one by default.
  { ...plansShowcase, name: 'showcase' },
];

export const scenarios: Record<string, Scenario> = Object.fromEntries(all.map((s) => [s.name, s]));
