import type { Browser, Page } from '@playwright/test';
import { newPage } from './browser';
import { median, percentile, sleep } from './stats';

/**
 * Key → paint, split where the time goes. A key's latency in Chromium has three parts, and only
 * two of them are the page's doing:
 * - `inputDelay`: keydown's timestamp → its first listener running (the main thread was busy);
 * - `frameWait`: that listener → the next animation frame's callbacks (the display's frame clock:
 *   when Chromium is already producing frames, for anything at all, a key waits for the next
 *   vsync tick, up to one frame interval; an idle compositor starts a frame at once);
 * - `frameWork`: those callbacks → a task posted from them, i.e. the frame's style, layout and
 *   paint done (the frame that shows the character).
 * `total` is what the older probe read (keydown's timestamp → the task after the next frame).
 */
export interface KeyParts {
  total: number;
  inputDelay: number;
  frameWait: number;
  frameWork: number;
}

export async function watchKeyParts(page: Page): Promise<() => Promise<KeyParts[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __keyParts: { total: number; inputDelay: number; frameWait: number; frameWork: number }[] };
    w.__keyParts = [];
    document.addEventListener(
      'keydown',
      (event) => {
        const at = event.timeStamp;
        const handled = performance.now();
        requestAnimationFrame(() => {
          const frame = performance.now();
          setTimeout(() => {
            const done = performance.now();
            w.__keyParts.push({ total: done - at, inputDelay: handled - at, frameWait: frame - handled, frameWork: done - frame });
          }, 0);
        });
      },
      { capture: true },
    );
  });
  return () => page.evaluate(() => (window as unknown as { __keyParts: KeyParts[] }).__keyParts);
}

/** "p95 total; parts p95 input delay / frame wait / frame work; median total". */
export function describeKeys(keys: readonly KeyParts[]): string {
  const p = (pick: (k: KeyParts) => number) => percentile(keys.map(pick), 95).toFixed(1);
  return `${keys.length} keys; p95 of each part: input delay ${p((k) => k.inputDelay)} ms, wait for the next frame ${p((k) => k.frameWait)} ms, the frame's own work ${p((k) => k.frameWork)} ms; median total ${median(keys.map((k) => k.total)).toFixed(1)} ms`;
}

export const totals = (keys: readonly KeyParts[]): number[] => keys.map((k) => k.total);

/**
 * The same typing on a page with no app: a textarea, and optionally one spinning icon (the plan
 * panel's own CSS, a transform animation that runs on the compositor). What no page can beat on
 * this Chromium at this pace: the control the app's figures are read against.
 */
export async function typingFloor(browser: Browser, options: { keys: number; delayMs: number; spinner: boolean }): Promise<KeyParts[]> {
  const page = await newPage(browser);
  try {
    const spinner = options.spinner
      ? '<style>@keyframes spin{to{transform:rotate(360deg)}}.s{display:inline-block;width:10px;height:10px;border:2px solid #36c;border-right-color:transparent;border-radius:50%;animation:spin .8s linear infinite}</style><span class="s"></span>'
      : '';
    await page.setContent(`<!doctype html><html><body>${spinner}<textarea aria-label="Message" rows="4" cols="80"></textarea></body></html>`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    const read = await watchKeyParts(page);
    const text = 'typing on a page with nothing else ';
    for (let typed = 0; typed < options.keys; typed += text.length) await box.pressSequentially(text.slice(0, Math.min(text.length, options.keys - typed)), { delay: options.delayMs });
    await page.waitForTimeout(200); // the last keys' paint
    return await read();
  } finally {
    await page.context().close();
  }
}

/**
 * Controls for the typing figure, same Chromium and pace (40 ms a key), as many keys: the app
 * itself once every chat is done (nothing streams, nothing spins), a page with only a textarea,
 * and that page with one spinning icon. What the app adds is read against these, not against 0.
 */
export async function typingControls(page: Page, browser: Browser, count: number): Promise<[string, KeyParts[], string][]> {
  const keys = Math.max(60, count);
  await sleep(1_000); // the last frames of the runs' end
  const read = await watchKeyParts(page);
  const text = 'typing once nothing runs ';
  for (let typed = 0; typed < keys; typed += text.length) await page.keyboard.type(text.slice(0, Math.min(text.length, keys - typed)), { delay: 40 });
  await sleep(200);
  const idle = await read();
  const blank = await typingFloor(browser, { keys, delayMs: 40, spinner: false });
  const spinning = await typingFloor(browser, { keys, delayMs: 40, spinner: true });
  return [
    ['control: the same typing in the app once every chat is done, key → paint p95', idle, 'same Message box and pace after the span, nothing streaming'],
    ['control: the same typing on a blank page with a textarea, key → paint p95', blank, 'no app at all: the floor of this Chromium at this pace (a page that drew within the last ≈ 40 ms waits for the next frame tick)'],
    ['control: the same typing on a blank page with one spinning icon, key → paint p95', spinning, 'the textarea and one CSS spinner (the plan panel\'s): any animation keeps the frame clock running, so every key waits for the next tick'],
  ];
}


/** A frame interval over this missed at least one 60 Hz tick. */
export const MISSED_FRAME_MS = 25;

export function describeFrames(gaps: readonly number[]): string {
  const missed = gaps.filter((g) => g > MISSED_FRAME_MS).length;
  return `${gaps.length} frames; interval median ${median([...gaps]).toFixed(1)} ms, p95 ${percentile([...gaps], 95).toFixed(1)} ms, longest ${Math.max(0, ...gaps).toFixed(1)} ms; ${missed} intervals over ${MISSED_FRAME_MS} ms (a tick missed)`;
}

/** Share of frame intervals that kept the 60 Hz clock (≤ MISSED_FRAME_MS), in per cent. */
export const framesOnTime = (gaps: readonly number[]): number => (gaps.length === 0 ? 0 : (100 * gaps.filter((g) => g <= MISSED_FRAME_MS).length) / gaps.length);
