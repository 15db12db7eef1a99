import type { Page } from '@playwright/test';

export interface CommittedState {
  /** Page wall clock (timeOrigin + now) when the DOM showed this state. */
  t: number;
  index: number;
}

/**
 * Installs, before the app loads, a MutationObserver that reads the Task plan panel after every
 * DOM commit and records when a new update index first shows (see plan-latency-scenario.ts).
 */
export async function observePlanPanel(page: Page, perRound: number): Promise<void> {
  await page.addInitScript((per: number) => {
    const w = window as unknown as { __planStates: { t: number; index: number }[] };
    w.__planStates = [];
    let last = -1;
    const read = () => {
      const region = document.querySelector('[role="region"][aria-label="Task plan"]');
      if (!region) return;
      const round = /Round (\d+)/.exec(region.querySelector('.task-plan-goal')?.textContent ?? '');
      const count = /(\d+)\/(\d+) steps/.exec(region.querySelector('.task-plan-count')?.textContent ?? '');
      if (!round || !count) return;
      const running = region.querySelectorAll('[data-status="in_progress"]').length;
      const index = Number(round[1]) * per + 2 * Number(count[1]) + running;
      if (index === last) return;
      last = index;
      w.__planStates.push({ t: performance.timeOrigin + performance.now(), index });
    };
    new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status'] });
  }, perRound);
}

export const committedStates = (page: Page): Promise<CommittedState[]> =>
  page.evaluate(() => (window as unknown as { __planStates: { t: number; index: number }[] }).__planStates);

/** What the panel shows now: the N/M text and every step's title and status. */
export function panelSnapshot(page: Page): Promise<{ count: string; goal: string; steps: { text: string; status: string }[] }> {
  return page.evaluate(() => {
    const region = document.querySelector('[role="region"][aria-label="Task plan"]');
    const steps = [...(region?.querySelectorAll('[role="listitem"], li') ?? [])]
      .filter((li) => li.hasAttribute('data-status'))
      .map((li) => ({ text: li.textContent ?? '', status: li.getAttribute('data-status') ?? '' }));
    return { count: region?.querySelector('.task-plan-count')?.textContent ?? '', goal: region?.querySelector('.task-plan-goal')?.textContent ?? '', steps };
  });
}
