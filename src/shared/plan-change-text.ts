import type { Plan } from './plan';
import { stepNumbers } from './step-numbers';

const MAX_TITLE_CHARS = 60;

function short(title: string): string {
  return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : title;
}

/**
 * The transcript line of a plan change, each step it mentions named by the number the panel
 * shows (its position, step-numbers.ts) and its title: the engine says "step 6 started" (Claude's
 * id, which goes back to Claude), the line says "step 3 “Make icons follow the theme” started",
 * the same number as the panel's "3." — the id stays in the step's detail. Numbers and titles are
 * taken from the plan as it is right after the change, so the line keeps what was true then; a
 * step no longer in it (deleted) keeps only its title, which the change already quotes.
 */
export function nameStepsInChange(change: string, plan: Pick<Plan, 'steps'>): string {
  if (!change.includes('step')) return change;
  const numbers = stepNumbers(plan.steps);
  const titles = new Map(plan.steps.map((step) => [step.id, step.title]));
  const ids = new Map(plan.steps.map((step) => [step.id, step]));
  // "steps 6–8 added": the numbers the panel shows for those steps.
  const ranged = change.replace(/\bsteps (\d+)–(\d+)\b/g, (whole, from: string, to: string) => {
    const range = Array.from({ length: Math.max(0, Number(to) - Number(from) + 1) }, (_, i) => Number(from) + i);
    const shown = range.map((id) => numbers.get(id));
    if (range.length === 0 || shown.some((n) => n === undefined)) return whole;
    const contiguous = shown.every((n, i) => i === 0 || Number(n) === Number(shown[i - 1]) + 1);
    return contiguous ? `steps ${shown[0]}–${shown[shown.length - 1]}` : `steps ${shown.join(', ')}`;
  });
  return ranged.replace(/\bstep (\d+)\b/g, (whole, id: string, at: number, text: string) => {
    const step = ids.get(Number(id));
    const title = titles.get(Number(id));
    if (step && title) return `step ${numbers.get(step.id) ?? id} “${short(title)}”`;
    // Gone from the plan: its id would be a number the panel never showed; its quoted title says which.
    return text.startsWith(' "', at + whole.length) ? 'step' : whole;
  });
}
