import type { Page } from '@playwright/test';

export interface CommittedState {
  /** Page wall clock (timeOrigin + now) when the DOM showed this state (its React commit). */
  t: number;
  index: number;
  /**
   * When the frame that paints it was done: a task posted from the next animation frame's
   * callback runs once that frame's style, layout and paint are done (an upper bound: a task
   * already queued, such as the next event's, runs first). Null until then.
   */
  painted: number | null;
}

/**
 * Installs, before the app loads, a MutationObserver that reads the Task plan panel after every
 * DOM commit and records when a new update index first shows (see plan-latency-scenario.ts),
 * and when the frame that paints it is done.
 */
export async function observePlanPanel(page: Page, perRound: number): Promise<void> {
  await page.addInitScript((per: number) => {
    const w = window as unknown as { __planStates: { t: number; index: number; painted: number | null }[]; __commits: number[] };
    const now = () => performance.timeOrigin + performance.now();
    w.__planStates = [];
    // Every callback is one DOM-changing commit (React's, or anything else): how many the page
    // did, wherever in the page, and when.
    w.__commits = [];
    let last = -1;
    const read = () => {
      w.__commits.push(now());
      const region = document.querySelector('[role="region"][aria-label="Task plan"]');
      if (!region) return;
      const round = /Round (\d+)/.exec(region.querySelector('.task-plan-goal')?.textContent ?? '');
      const count = /(\d+)\/(\d+) steps/.exec(region.querySelector('.task-plan-count')?.textContent ?? '');
      if (!round || !count) return;
      const running = region.querySelectorAll('[data-status="in_progress"]').length;
      const index = Number(round[1]) * per + 2 * Number(count[1]) + running;
      if (index === last) return;
      last = index;
      const state = { t: now(), index, painted: null as number | null };
      w.__planStates.push(state);
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (state.painted = now());
        channel.port2.postMessage(null);
      });
    };
    new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status'] });
    // When each plan_updated frame reaches the page (before the app's own listener runs): splits
    // the latency into main + network and the renderer's part.
    const frames: { t: number; version: number }[] = ((window as unknown as { __planFrames: unknown }).__planFrames = []);
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('message', (event) => {
          const data = typeof event.data === 'string' ? event.data : '';
          if (!data.includes('"plan_updated"')) return;
          const t = performance.timeOrigin + performance.now();
          // A frame is a turn's events (WsServerFrame `events`).
          const frame = JSON.parse(data) as { events?: { type?: string; plan?: { version?: number } }[] };
          for (const event of frame.events ?? []) if (event.type === 'plan_updated' && typeof event.plan?.version === 'number') frames.push({ t, version: event.plan.version });
        });
      }
    };
  }, perRound);
}

/** Page wall-clock arrival of each plan_updated frame and the plan version it carried. */
export const planFrames = (page: Page): Promise<{ t: number; version: number }[]> =>
  page.evaluate(() => (window as unknown as { __planFrames: { t: number; version: number }[] }).__planFrames);

/** Page wall-clock time of every DOM-changing commit (a MutationObserver callback). */
export const domCommits = (page: Page): Promise<number[]> => page.evaluate(() => (window as unknown as { __commits: number[] }).__commits);

export const committedStates = (page: Page): Promise<CommittedState[]> =>
  page.evaluate(() => (window as unknown as { __planStates: CommittedState[] }).__planStates);

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
