import type { Scenario } from '../scripted-api/scenario';
import { basicScenarios } from './basic';

/**
 * Every named scenario, for the CLI (`--scenario NAME`) and e2e fixtures. To add a group, import
 * its array and spread it into `all` below.
 */
const all: Scenario[] = [...basicScenarios];

export const scenarios: Record<string, Scenario> = Object.fromEntries(all.map((s) => [s.name, s]));
