import type { Plan } from './plan';

const MAX_TITLE_CHARS = 60;

function short(title: string): string {
  return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : title;
}

/**
 * The transcript line of a plan change, naming each step it mentions by title as well as by id:
 * "Updated plan: step 6 “Make icons follow the theme” started". The panel numbers steps by
 * position and Claude's words use ids ("step 6"); the title links the two for a reader. Titles
 * are taken from the plan as it is right after the change, so the line keeps what was true then.
 * (The engine's own change text, which also goes back to Claude, stays short.)
 */
export function nameStepsInChange(change: string, plan: Pick<Plan, 'steps'>): string {
  if (!change.includes('step ')) return change;
  const titles = new Map(plan.steps.map((step) => [step.id, step.title]));
  return change.replace(/\bstep (\d+)\b/g, (whole, id: string) => {
    const title = titles.get(Number(id));
    return title ? `${whole} “${short(title)}”` : whole;
  });
}
