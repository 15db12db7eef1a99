import type { Locator, Page } from '@playwright/test';
import type { Scenario, ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expectAccessible, expectAccessibleInBothSchemes } from './support/axe';
import { test, expect } from './support/fixtures';
import { expectFullyInView } from './support/in-view';
import { openNewChat, send } from './support/plan-panel';
import { callsNamed, watchCalls } from './support/calls';
import { MOD } from './support/keyboard';
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
  // Rows come and go as the view moves: a text read after its match may be another row's by then.
  const texts = await slowLines(log).allTextContents();
  return Math.max(0, ...texts.map((t) => Number(/^Slow line (\d+)/.exec(t)?.[1] ?? 0)));
}

async function scrollTop(log: Locator): Promise<number> {
  return log.evaluate((el) => el.scrollTop);
}

/**
 * Waits until the log's scroll position holds still for a few frames and 300 ms (a wheel's scroll
 * has played out). Frames alone may not be enough on a loaded machine: the wheel's smooth scroll
 * runs off the main thread and can stall for three frames, then go on; the check below would read
 * that as the view moving by itself. (The likely cause of a 27 px move seen once in a CI run at
 * load 5–6; not reproduced here at load 17–26, so not proven.)
 */
async function settled(log: Locator): Promise<void> {
  await log.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        let last = el.scrollTop;
        let still = 0;
        let since = performance.now();
        const tick = () => {
          if (el.scrollTop === last) still += 1;
          else [still, since] = [0, performance.now()];
          last = el.scrollTop;
          if (still >= 3 && performance.now() - since >= 300) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/** The first row wholly inside the log's view: its key and where it is on screen. */
function anchorRow(log: Locator): Promise<{ key: string; top: number } | null> {
  return log.evaluate((el) => {
    const view = el.getBoundingClientRect();
    for (const row of el.querySelectorAll<HTMLElement>('[data-row-key]')) {
      const r = row.getBoundingClientRect();
      if (r.top >= view.top && r.bottom <= view.bottom) return { key: row.dataset.rowKey!, top: r.top };
    }
    return null;
  });
}

/** The first streamed line wholly inside the log's view (the reply is one row, taller than the view): its text and where it is. */
function anchorLine(log: Locator): Promise<{ text: string; top: number } | null> {
  return log.evaluate((el) => {
    const view = el.getBoundingClientRect();
    for (const line of el.querySelectorAll<HTMLElement>('[data-row-key] *')) {
      const r = line.getBoundingClientRect();
      if (/^Slow line \d+ of the streamed reply\.$/.test(line.textContent ?? '') && r.top >= view.top && r.bottom <= view.bottom) return { text: line.textContent!, top: r.top };
    }
    return null;
  });
}

function lineTop(log: Locator, text: string): Promise<number | null> {
  return log.evaluate((el, t) => {
    for (const line of el.querySelectorAll<HTMLElement>('[data-row-key] *')) if (line.textContent === t) return line.getBoundingClientRect().top;
    return null;
  }, text);
}

/** Whether the rendered rows cover the log's view from top to bottom (none still to come in). */
function rowsFillTheView(log: Locator): Promise<boolean> {
  return log.evaluate((el) => {
    const view = el.getBoundingClientRect();
    const rows = [...el.querySelectorAll<HTMLElement>('[data-row-key]')].map((row) => row.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    // The list's box: the log's padding above its first row and below its last is no row's to fill.
    const list = el.querySelector(':scope > .transcript-inner')?.getBoundingClientRect();
    if (!list || rows.length === 0) return false;
    let covered = Math.max(view.top, list.top);
    for (const r of rows) if (r.top <= covered + 1 && r.bottom > covered) covered = r.bottom;
    return covered >= Math.min(view.bottom, list.bottom) - 1;
  });
}

function rowTop(log: Locator, key: string): Promise<number | null> {
  return log.evaluate((el, k) => {
    for (const row of el.querySelectorAll<HTMLElement>('[data-row-key]')) if (row.dataset.rowKey === k) return row.getBoundingClientRect().top;
    return null;
  }, key);
}

/**
 * Wheels up (the mouse over the log) until the top of the chat, older pages loading on the way.
 * After every turn of the wheel, a row that was in view is still there, moved down by the wheel's
 * distance — give or take a screen: a row above it measured for the first time corrects its
 * estimated height (the virtualiser's doing, paged or not) — and never up. A page of older rows
 * going in above without the view kept in place would move it by the page's height, many screens.
 */
async function wheelToTheTop(page: Page, log: Locator): Promise<void> {
  const height = (await log.boundingBox())!.height;
  const STEP = Math.round(height * 0.3);
  for (let i = 0; i < 1500; i++) {
    await settled(log);
    const atTop = (await scrollTop(log)) === 0 && (await log.getByText(FIRST, { exact: true }).count()) > 0;
    if (atTop) return;
    const anchor = await anchorRow(log);
    await page.mouse.wheel(0, -STEP);
    await settled(log);
    if (!anchor) continue;
    const top = await rowTop(log, anchor.key);
    const what = `row ${anchor.key}, in view before one turn of the wheel (${STEP} px up)`;
    expect(top, `${what}, is still there after it`).not.toBeNull();
    expect(top! - anchor.top, `${what}: moved down by`).toBeGreaterThanOrEqual(-2);
    expect(top! - anchor.top, `${what}: moved down by`).toBeLessThanOrEqual(STEP + height);
  }
  throw new Error('the wheel did not reach the first message');
}

async function buildLongChat(page: Page): Promise<void> {
  const log = conversation(page);
  for (let part = 0; part < PARTS; part++) {
    await send(page, part === 0 ? FIRST : `Part ${part + 1}, please`);
    // While it is built the view follows: each part's last reply shows up in view.
    await expect(log.getByText(part === PARTS - 1 ? LAST_OF_BUILD : `Part ${part + 1} done.`)).toBeVisible({ timeout: 120_000 });
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  }
}

test.describe('a long chat', () => {
  test.use({ scenario: { name: 'long-chat', turns, onExhausted: 'echo' } });

  test('opens at its end, reaches its first message, follows a stream until the user scrolls up, and survives a reload', async ({ app: page, scripted }) => {
    test.setTimeout(420_000);
    const calls = watchCalls(page);
    const log = conversation(page);
    await buildLongChat(page);
    // Virtualised: a fraction of the chat is in the page.
    const rows = await log.evaluate((el) => el.querySelectorAll('*').length);
    expect(rows, 'elements in the log of a 150-turn chat').toBeLessThan(3000);

    // Picked from the sidebar, it opens at its end with the last reply in view.
    await openNewChat(page);
    await page.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: FIRST }).click();
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

    // Far up the chat, the user sends a message: it comes into view, and so does the reply.
    await page.keyboard.press('Home');
    await expect(log.getByText(FIRST, { exact: true })).toBeVisible();
    await send(page, 'A quick one from far up');
    await expectFullyInView(log.getByText('A quick one from far up', { exact: true }), 'the message sent from far up');
    await expectFullyInView(log.getByText('You said: A quick one from far up'), 'its reply');
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);

    // After a reload the chat is paged (issue 15 item 2): it opens at its end with only its last
    // page; the rest stays in main until it is needed.
    await page.reload();
    await expectFullyInView(log.getByText(LAST_OF_BUILD), 'the last reply after a reload');
    await expectAtEnd(log, 'after a reload');
    const opened = callsNamed(calls, 'getSession').at(-1)?.value as { transcript: unknown[]; olderItems: number };
    expect(opened.olderItems, 'items left in main: more than a page').toBeGreaterThan(opened.transcript.length);
    await expect(log.getByText(FIRST, { exact: true })).toHaveCount(0);
    await expectAccessibleInBothSchemes(page, 'a long chat, paged');

    // Older pages still in main (the log holds the status that says when they load), the user
    // sends a message: it comes into view, and the reply streams in.
    const box = (await log.boundingBox())!;
    const olderInMain = log.getByRole('status');
    await expect(olderInMain).toHaveCount(1);
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
    // All of that with the chat's start still in main.
    await expect(olderInMain).toHaveCount(1);
    await expect(log.getByText(FIRST, { exact: true })).toHaveCount(0);

    // The user scrolls up: the view stays where they put it while the reply keeps growing.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    await expect.poll(() => distanceFromEnd(log)).toBeGreaterThan(300);
    await settled(log);
    // Where a row on screen is (not scrollTop: an older page going in above may change that, never what is on screen).
    const parked = (await anchorRow(log))!;
    const lineWhenParked = await newestSlowLine(log);
    const grownFrom = await log.evaluate((el) => el.scrollHeight);
    await expect.poll(() => log.evaluate((el) => el.scrollHeight), { timeout: 20_000 }).toBeGreaterThan(grownFrom + 200);
    expect(Math.abs((await rowTop(log, parked.key))! - parked.top), 'the view moved while the user was reading above').toBeLessThanOrEqual(2);
    expect(lineWhenParked).toBeLessThan(SLOW_LINES);

    // End brings the view back and it follows again to the end of the reply.
    await log.focus();
    await page.keyboard.press('End');
    await expectAtEnd(log, 'End while the reply streams');

    // A scroll that is neither the wheel, a key nor the scrollbar (a screen reader, the browser's
    // find, a script) moves the view too: it stays where that put it while the reply grows.
    await expect.poll(() => newestSlowLine(log)).toBeLessThan(SLOW_LINES - 20);
    // Steps up as a screen reader moves line by line, each in its own frame.
    await log.evaluate(async (el) => {
      for (let i = 0; i < 4; i++) {
        el.scrollTop -= 200;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    });
    await settled(log);
    const movedTo = await anchorLine(log);
    expect(movedTo, 'a streamed line in view after the script scrolled up').not.toBeNull();
    const grownFromScripted = await log.evaluate((el) => el.scrollHeight);
    await expect.poll(() => log.evaluate((el) => el.scrollHeight), { timeout: 20_000 }).toBeGreaterThan(grownFromScripted + 200);
    const nowAt = await lineTop(log, movedTo!.text);
    expect(nowAt, `"${movedTo!.text}" is still in the page after the reply grew`).not.toBeNull();
    expect(Math.abs(nowAt! - movedTo!.top), 'the view moved back after a script scrolled it up').toBeLessThanOrEqual(2);
    expect(await distanceFromEnd(log), 'px from the end after a script scrolled up').toBeGreaterThan(300);
    await page.keyboard.press('End');
    await expectAtEnd(log, 'End again while the reply streams');
    // Following again: the reply's last line arrives in view.
    await expect(log.getByText(SLOW_END)).toBeVisible({ timeout: 30_000 });
    await expectFullyInView(log.getByText(SLOW_END), 'the end of the streamed reply');
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    await expectAtEnd(log, 'after the stream');

    // After a reload, the wheel reaches the very first message: pages load on the way up, and the
    // rows they add above never move what is on screen.
    await page.reload();
    await expectAtEnd(log, 'after a reload');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const pagesBefore = callsNamed(calls, 'getTranscriptPage').length;
    await wheelToTheTop(page, log);
    await expectFullyInView(log.getByText(FIRST, { exact: true }), 'the first message, wheeled to');
    expect(callsNamed(calls, 'getTranscriptPage').length - pagesBefore, 'pages loaded on the way up').toBeGreaterThanOrEqual(1);

    // After a reload, find in chat finds a word from the first turn, loading the chat down to it, and shows it.
    await page.reload();
    await expectAtEnd(log, 'after a reload');
    await page.getByRole('textbox', { name: 'Message', exact: true }).focus();
    await page.keyboard.press(`${MOD}+Shift+F`);
    const find = page.getByRole('search', { name: 'Find in chat', exact: true });
    await page.keyboard.type('Walk the project');
    await expect(find.getByRole('status')).toHaveText('1 of 1');
    await expectFullyInView(log.getByText(FIRST, { exact: true }), 'the first message, found');
    await page.keyboard.press('Escape');

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
    const look = async () => {
      for (const text of await log.getByText(/^Turn \d+: looking at the project files\.$/).allTextContents()) {
        const n = Number(/\d+/.exec(text)![0]);
        if (!seen.includes(n)) seen.push(n);
      }
      sawSent ||= (await log.getByText('Now tell me slowly', { exact: true }).count()) > 0;
    };
    await look();
    for (let i = 0; i < 2000 && (await distanceFromEnd(log)) > 4; i++) {
      const before = await scrollTop(log);
      await page.keyboard.press('PageDown');
      await expect.poll(async () => (await scrollTop(log)) !== before || (await distanceFromEnd(log)) <= 4).toBe(true);
      await look(); // on the way, as well as where it stops
      // Page Down scrolls smoothly over several frames, and the virtualised rows of the new view
      // render after it: read them once the scroll has played out and the rows fill the view
      // (read earlier, a row passed by on the way was never seen: turn 119 went missing once).
      await settled(log);
      await expect.poll(() => rowsFillTheView(log), { message: 'the rows of the view after Page Down are rendered' }).toBe(true);
      await look();
    }
    expect(seen).toEqual(Array.from({ length: TURNS }, (_, i) => i + 1));
    expect(sawSent, 'the message sent before the reload').toBe(true);
    await expect(log.getByText(SLOW_END)).toBeVisible();
  });
});
