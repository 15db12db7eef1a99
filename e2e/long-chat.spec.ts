import type { Locator, Page } from '@playwright/test';
import type { Scenario, ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { expectFullyInView } from './support/in-view';
import { openNewChat, send } from './support/plan-panel';
import { conversation, distanceFromEnd, expectAtEnd } from './support/transcript';

// A long working chat (issue 15 items 1 and 7): 150 model turns of markdown, code, tables and tool
// cards, built through the app against the scripted server. The transcript is virtualised; it
// must open at its end, reach its first message, follow a streaming reply until the user scrolls
// up, show the user's own message when sent, and keep everything across a reload.

// A run stops at 50 model turns ("Max model turns"): three requests of 49 tool turns and a reply.
const PARTS = 3;
const TOOL_TURNS = 49;
const TURNS = PARTS * TOOL_TURNS;
const FIRST = 'Walk the project with me, turn by turn';
const LAST_OF_BUILD = 'End of the long chat.';
const SLOW_LINES = 90;
const SLOW_END = 'End of the slow reply.';

function turnText(n: number): string {
  const parts = [`Turn ${n}: looking at the project files.`];
  if (n % 2 === 0) parts.push('```typescript', `export const step${n} = (xs: string[]) => xs.filter((x) => x.endsWith('.ts'));`, '```');
  if (n % 3 === 0) parts.push('', '| file | lines |', '| --- | --- |', `| src/a${n}.ts | ${n * 3} |`, `| src/b${n}.ts | ${n * 5} |`);
  if (n % 5 === 0) parts.push('', ...Array.from({ length: 4 }, (_, i) => `- point ${i + 1} of turn ${n}`));
  return parts.join('\n');
}

const slowReply = [...Array.from({ length: SLOW_LINES }, (_, i) => `Slow line ${i + 1} of the streamed reply.`), SLOW_END].join('\n\n');

const turns: ScriptedTurn[] = [
  ...Array.from({ length: PARTS }, (_, part): ScriptedTurn[] => [
    ...Array.from({ length: TOOL_TURNS }, (_, t): ScriptedTurn => ({ kind: 'tool_use', text: turnText(part * TOOL_TURNS + t + 1), calls: [{ name: 'list_directory', input: { path: '.' } }], delayMs: 0, chunkChars: 100_000 })),
    { kind: 'text', text: part === PARTS - 1 ? `All ${TURNS} turns done.\n\n${LAST_OF_BUILD}` : `Part ${part + 1} done.`, delayMs: 0, chunkChars: 100_000 },
  ]).flat(),
];
// Then a held reply (the test releases it once the sent message is checked), ~16 s of streaming:
// long enough to watch it follow, scroll away and come back.
const slowScenario: Scenario = { name: 'long-chat-slow', gated: true, turns: [{ kind: 'text', text: slowReply, chunkChars: 8, delayMs: 40 }], onExhausted: 'echo' };

/** Samples, after every painted frame, how far the view is from the end; returns the samples. */
async function watchDistance(log: Locator): Promise<() => Promise<number[]>> {
  await log.evaluate((el) => {
    const w = window as unknown as { __dist: number[]; __watch: boolean };
    w.__dist = [];
    w.__watch = true;
    const tick = () => {
      if (!w.__watch) return;
      setTimeout(() => w.__dist.push(Math.max(0, el.scrollHeight - el.scrollTop - el.clientHeight)), 0);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return () =>
    log.evaluate(() => {
      const w = window as unknown as { __dist: number[]; __watch: boolean };
      w.__watch = false;
      return w.__dist;
    });
}

const slowLines = (log: Locator) => log.getByText(/^Slow line \d+ of the streamed reply\.$/);

async function newestSlowLine(log: Locator): Promise<number> {
  const texts = await slowLines(log).allTextContents();
  return Math.max(0, ...texts.map((t) => Number(/\d+/.exec(t)![0])));
}

async function scrollTop(log: Locator): Promise<number> {
  return log.evaluate((el) => el.scrollTop);
}

async function buildLongChat(page: Page): Promise<void> {
  const log = conversation(page);
  for (let part = 0; part < PARTS; part++) {
    await send(page, part === 0 ? FIRST : `Part ${part + 1}, please`);
    // While it is built the view follows: each part's last reply shows up in view.
    await expect(log.getByText(part === PARTS - 1 ? LAST_OF_BUILD : `Part ${part + 1} done.`)).toBeVisible({ timeout: 120_000 });
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  }
}

test.describe('a long chat', () => {
  test.use({ scenario: { name: 'long-chat', turns, onExhausted: 'echo' } });

  test('opens at its end, reaches its first message, follows a stream until the user scrolls up, and survives a reload', async ({ app: page, scripted }) => {
    test.setTimeout(300_000);
    const log = conversation(page);
    await buildLongChat(page);
    // Virtualised: a fraction of the chat is in the page.
    const rows = await log.evaluate((el) => el.querySelectorAll('*').length);
    expect(rows, 'elements in the log of a 150-turn chat').toBeLessThan(3000);

    // Picked from the sidebar, it opens at its end with the last reply in view.
    await openNewChat(page);
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: FIRST }).click();
    await expectFullyInView(log.getByText(LAST_OF_BUILD), 'the last reply after picking the chat');
    await expectAtEnd(log, 'picked from the sidebar');
    await expectAccessible(page, 'a long chat', 'light');

    // Home (the log has focus) reaches the very first message; End comes back.
    await log.focus();
    await page.keyboard.press('Home');
    await expectFullyInView(log.getByText(FIRST, { exact: true }), 'the first message after Home');
    await expect(log.getByText(LAST_OF_BUILD)).toHaveCount(0);
    await page.keyboard.press('End');
    await expectFullyInView(log.getByText(LAST_OF_BUILD), 'the last reply after End');
    await expectAtEnd(log, 'after End');

    // Far up the chat, the user sends a message: it comes into view.
    await page.keyboard.press('Home');
    await expect(log.getByText(FIRST, { exact: true })).toBeVisible();
    scripted.setScenario(slowScenario);
    await send(page, 'Now tell me slowly');
    await expectFullyInView(log.getByText('Now tell me slowly', { exact: true }), 'the message the user just sent');
    await scripted.release();

    // While the reply streams, the view stays at the end, the newest line in view.
    await expect.poll(() => newestSlowLine(log)).toBeGreaterThanOrEqual(3);
    const stopWatching = await watchDistance(log);
    await expect.poll(() => newestSlowLine(log), { timeout: 20_000 }).toBeGreaterThanOrEqual(20);
    const followed = await stopWatching();
    expect(followed.length, 'frames watched while following').toBeGreaterThan(5);
    // A frame may paint a delta before the row's new height is measured: at most a line or two.
    expect(Math.max(...followed), 'px from the end while following the stream').toBeLessThan(120);

    // The user scrolls up: the view stays where they put it while the reply keeps growing.
    const box = (await log.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    await expect.poll(() => distanceFromEnd(log)).toBeGreaterThan(300);
    const parked = await scrollTop(log);
    const lineWhenParked = await newestSlowLine(log);
    const grownFrom = await log.evaluate((el) => el.scrollHeight);
    await expect.poll(() => log.evaluate((el) => el.scrollHeight), { timeout: 20_000 }).toBeGreaterThan(grownFrom + 200);
    expect(Math.abs((await scrollTop(log)) - parked), 'the view moved while the user was reading above').toBeLessThanOrEqual(2);
    expect(lineWhenParked).toBeLessThan(SLOW_LINES);

    // End brings the view back and it follows again to the end of the reply.
    await log.focus();
    await page.keyboard.press('End');
    await expectAtEnd(log, 'End while the reply streams');
    // Following again: the reply's last line arrives in view.
    await expect(log.getByText(SLOW_END)).toBeVisible({ timeout: 30_000 });
    await expectFullyInView(log.getByText(SLOW_END), 'the end of the streamed reply');
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
    await expectAtEnd(log, 'after the stream');

    // After a reload: at the end again, and nothing lost, from the first message to the last.
    await page.reload();
    await expectFullyInView(log.getByText(SLOW_END), 'the last reply after a reload');
    await expectAtEnd(log, 'after a reload');
    await log.focus();
    await page.keyboard.press('Home');
    await expectFullyInView(log.getByText(FIRST, { exact: true }), 'the first message after a reload');
    // Page Down through the whole chat: every turn shows up once, in order.
    const seen: number[] = [];
    let sawSent = false;
    for (let i = 0; i < 2000 && (seen.length === 0 || (await distanceFromEnd(log)) > 4); i++) {
      for (const text of await log.getByText(/^Turn \d+: looking at the project files\.$/).allTextContents()) {
        const n = Number(/\d+/.exec(text)![0]);
        if (!seen.includes(n)) seen.push(n);
      }
      sawSent ||= (await log.getByText('Now tell me slowly', { exact: true }).count()) > 0;
      const before = await scrollTop(log);
      await page.keyboard.press('PageDown');
      await expect.poll(async () => (await scrollTop(log)) !== before || (await distanceFromEnd(log)) <= 4).toBe(true);
      // The rows for the new position are rendered in the frames after the scroll.
      await log.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    expect(seen).toEqual(Array.from({ length: TURNS }, (_, i) => i + 1));
    expect(sawSent, 'the message sent before the reload').toBe(true);
    await expect(log.getByText(SLOW_END)).toBeVisible();
  });
});
