import type { Plan } from './plan';
import { stepNumbers } from './step-numbers';
import type { CardStep } from './transcript';

/** A step's result on the card is a glance, not the whole output: the panel's detail had the rest. */
const MAX_RESULT_CHARS = 300;

/** The steps a completion card lists: in plan order, numbered as the panel numbers them, with each step's result or reason. */
export function cardSteps(plan: Pick<Plan, 'steps'>): CardStep[] {
  const numbers = stepNumbers(plan.steps);
  return plan.steps.map((step) => {
    const said = step.result ?? step.reason;
    const result = said && said.length > MAX_RESULT_CHARS ? `${said.slice(0, MAX_RESULT_CHARS - 1).trimEnd()}…` : said;
    return { number: numbers.get(step.id) ?? String(step.id), title: step.title, status: step.status, ...(result ? { result } : {}) };
  });
}
