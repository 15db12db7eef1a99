import { rmSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, longTasksSince, newPage, recordLongTasks } from './lib/browser';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { median, percentile } from './lib/stats';
import { wheelToTop } from './lib/wheel';
import { addedBytes, buildVirtualiserPage } from './virtualisers/build-page';
import type { Lib, VirtualiserPage } from './virtualisers/page';

/**
 * Issue 15 item 1: "measure two and say why you chose one". The same 300-turn working chat in the
 * app's Transcript on virtua and in the same transcript on @tanstack/react-virtual
 * (virtualisers/tanstack-transcript.tsx), in Chromium, runs alternating between them; and, for
 * opening and wheeling only, virtua given a row-height estimate (virtualisers/virtua-sized.tsx).
 */
const m = metricsFor('virtualisers');
const LIBS: Lib[] = ['virtua', 'tanstack', 'virtua-sized'];
/** The two compared in full; virtua-sized only opens and wheels (what a row estimate changes). */
const COMPARED = ['virtua', 'tanstack'] as const;
/** The exports each transcript takes from its library. */
const IMPORTS: Record<(typeof COMPARED)[number], string> = {
  virtua: "import { Virtualizer as x } from 'virtua';",
  tanstack: "import { useVirtualizer as x } from '@tanstack/react-virtual';",
};

interface Run {
  openMs: number;
  openPxShort: number;
  openShown: boolean;
  openLongTasks: number;
  domElements: number;
  scrollP95: number;
  scrollLongTasks: number;
  scrollLongest: number;
  wheels: number;
  reachedTop: boolean;
  /** Wheel movement (px) it took to reach the top, and the log's height then. */
  wheeledToTop: number | null;
  clientHeight: number;
  /** Frames in which the view moved down (> 50 px of the true content) while the wheel went up, and the largest such move. */
  backFrames: number;
  backLargest: number;
  stream?: { maxBehindPx: number; framesBehind: number; frames: number; behindAfterPx: number };
  prepend?: { maxMovedPx: number; movedAfterPx: number };
}

const bench = (page: Page) => ({
  call: <K extends keyof VirtualiserPage>(name: K, ...args: Parameters<VirtualiserPage[K]>) =>
    page.evaluate(({ name, args }) => (window as unknown as { bench: Record<string, (...a: unknown[]) => unknown> }).bench[name]!(...args), { name, args }) as Promise<Awaited<ReturnType<VirtualiserPage[K]>>>,
});

async function freshPage(browser: Browser, url: string) {
  const page = await newPage(browser);
  await recordLongTasks(page);
  await page.goto(url);
  await page.waitForFunction(() => 'bench' in window);
  return page;
}

/** One run of each measure for `lib`, each on a fresh page. */
/** Frames of a wheel trace in which the view moved down the true content (px), though the wheel only went up. */
function movesBack(trace: { frames: { key: string; y: number }[] }, tops: Record<string, number>): number[] {
  const offsets = trace.frames.map((f) => tops[f.key]! - f.y);
  return offsets.slice(1).map((o, i) => o - offsets[i]!).filter((d) => d > 50);
}

async function oneRun(browser: Browser, url: string, lib: Lib, quick: boolean, tops: Record<string, number>): Promise<Run> {
  // Open at the end, then wheel to the first message.
  let page = await freshPage(browser, url);
  const open = await bench(page).call('open', lib, 0, 1000);
  const openLong = await longTasksSince(page, open.started);
  const log = page.getByRole('log', { name: 'Conversation' });
  await bench(page).call('watchWheel');
  const scroll = await wheelToTop(page, log, () => bench(page).call('atTop'), quick ? 40 : 2400);
  const scrollLong = await longTasksSince(page, scroll.from);
  const trace = await bench(page).call('wheelTrace');
  const back = movesBack(trace, tops);
  const clientHeight = await log.evaluate((el) => el.clientHeight);
  await page.context().close();
  const run: Run = {
    openMs: open.shownAtMs,
    openPxShort: open.pxShort,
    openShown: open.lastReplyShown,
    openLongTasks: openLong.filter((t) => t.start < open.started + open.shownAtMs + 1000).length,
    domElements: open.domElements,
    scrollP95: percentile(scroll.gaps, 95),
    scrollLongTasks: scrollLong.length,
    scrollLongest: Math.max(0, ...scrollLong.map((t) => t.duration)),
    wheels: scroll.wheels,
    reachedTop: scroll.reachedTop,
    wheeledToTop: trace.toTop,
    clientHeight,
    backFrames: back.length,
    backLargest: Math.max(0, ...back),
  };
  if (!(COMPARED as readonly Lib[]).includes(lib)) return run;

  // A reply streams in at the end.
  page = await freshPage(browser, url);
  await bench(page).call('open', lib, 0, 500);
  const stream = await bench(page).call('stream', 60, 33);
  await page.context().close();

  // Older turns come in above while the user is at the top of the last 150.
  page = await freshPage(browser, url);
  await bench(page).call('open', lib, 150, 500);
  await bench(page).call('scrollTop', 0);
  await page.waitForTimeout(1000);
  const prepend = await bench(page).call('prepend', 50, 1000);
  await page.context().close();

  return { ...run, stream, prepend };
}

/** "median [run, run, run]" of one measure over the runs. */
function cell<T>(runs: T[], pick: (r: T) => number, digits = 0): { median: number; text: string } {
  const values = runs.map(pick);
  const mid = median(values);
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(digits) : String(v));
  return { median: mid, text: `${fmt(mid)} [${values.map(fmt).join(', ')}]` };
}

function rows(lib: Lib, runs: Run[], height: number): Metric[] {
  const n = runs.length;
  const name = (what: string) => `${lib}: ${what}`;
  const open = cell(runs, (r) => r.openMs);
  const short = cell(runs, (r) => r.openPxShort);
  const p95 = cell(runs, (r) => r.scrollP95, 1);
  const long = cell(runs, (r) => r.scrollLongTasks);
  const back = cell(runs, (r) => r.backFrames);
  const skipped = cell(runs, (r) => (r.wheeledToTop === null ? Number.NaN : height - r.clientHeight - r.wheeledToTop));
  const chat = '300 rich turns (1,200 items: user message, a reply, a read_file card, a reply with a heading, a table, a list and an 18-line TypeScript block), bench/lib/chat-turns.ts';
  const out = [
    m(name('open at the end → first paint showing the last reply'), open.text, 'ms', `${chat}; from asking React to render the chat to the task after the first frame in which the last reply's end is inside the log; median [${n} runs]`),
    m(name('open: px short of the end, 1 s later'), short.text, 'px', `scrollHeight − clientHeight − scrollTop of the log; last reply shown: ${runs.map((r) => (r.openShown ? 'yes' : 'NO')).join(', ')}; long tasks while opening: ${runs.map((r) => r.openLongTasks).join(', ')}`, { text: '≤ 2 px', met: short.median <= 2 }),
    m(name('open: DOM elements'), cell(runs, (r) => r.domElements).text, '', 'document.getElementsByTagName("*") 1 s after opening at the end (the page is the transcript alone)'),
    m(name('wheel scroll bottom → top: frame interval p95'), p95.text, 'ms', `mouse.wheel(−800 px) every 30 ms to the first message (bench/lib/wheel.ts): wheels ${runs.map((r) => `${r.wheels}${r.reachedTop ? '' : ' (top NOT reached)'}`).join(', ')}`),
    m(name('wheel scroll bottom → top: long tasks > 50 ms'), long.text, '', `longest ${runs.map((r) => r.scrollLongest.toFixed(0)).join(', ')} ms`),
    m(name('wheel scroll bottom → top: frames the view jumped back down'), back.text, '', `frames in which the row at the top of the view shows the view moved more than 50 px down the chat's true layout while the wheel only went up (a row above measured after it was painted: a visible flicker); largest ${runs.map((r) => r.backLargest.toFixed(0)).join(', ')} px`, { text: '0', met: back.median === 0 }),
    m(name('wheel scroll bottom → top: content jumped over'), skipped.text, 'px', `the chat's true height (every row in the DOM, no virtualiser: ${height.toFixed(0)} px) less the log's height, less the wheel movement it took to reach the first message (a wheel listener, up to the first frame at the top): what the view skipped instead of scrolling through, as rows above were measured; negative: the view was pushed back`, { text: '≈ 0 (± one wheel, 800 px)', met: Math.abs(skipped.median) <= 800 }),
  ];
  const streamed = runs.flatMap((r) => (r.stream ? [r.stream] : []));
  const prepended = runs.flatMap((r) => (r.prepend ? [r.prepend] : []));
  if (streamed.length) {
    const behind = cell(streamed, (s) => s.maxBehindPx);
    out.push(m(name('reply streaming at the end: most px behind the end'), behind.text, 'px', `a user message and an ≈ 13,000-character reply (3 rich replies) added at the end, 60 characters every 33 ms (the pump's cadence), then done; per frame scrollHeight − clientHeight − scrollTop; frames more than 2 px behind: ${streamed.map((s) => `${s.framesBehind}/${s.frames}`).join(', ')}; 1 s after the end: ${streamed.map((s) => s.behindAfterPx.toFixed(0)).join(', ')} px`, { text: '≤ 2 px', met: behind.median <= 2 }));
  }
  if (prepended.length) {
    const moved = cell(prepended, (p) => p.maxMovedPx);
    out.push(m(name('50 turns prepended at the top: px the top row moved'), moved.text, 'px', `the last 150 turns open, scrolled to the top, 50 older turns (200 items) rendered above; per frame for 1 s, how far the row at the top of the view moved (Infinity: it left the DOM); 1 s later: ${prepended.map((p) => p.movedAfterPx.toFixed(0)).join(', ')} px`, { text: '≤ 2 px', met: moved.median <= 2 }));
  }
  return out;
}

/** virtua against @tanstack/react-virtual on the same chat, measured the same way, three runs each alternating. */
export const virtualisersBench: Benchmark = async ({ quick }) => {
  const built = await buildVirtualiserPage();
  try {
    return await withScope(async (scope) => {
      const browser = scope.add(await launchChromium(), (b) => b.close());
      const measure = await freshPage(browser, built.url);
      const { height, tops } = await bench(measure).call('trueLayout');
      await measure.context().close();
      const runs: Record<Lib, Run[]> = { virtua: [], tanstack: [], 'virtua-sized': [] };
      const count = quick ? 1 : 3;
      for (let r = 0; r < count; r++) {
        for (const lib of r % 2 ? [...LIBS].reverse() : LIBS) runs[lib].push(await oneRun(browser, built.url, lib, quick, tops));
      }
      const out: Metric[] = [];
      for (const lib of LIBS) out.push(...rows(lib, runs[lib], height));
      for (const lib of COMPARED) {
        const bytes = await addedBytes(IMPORTS[lib]);
        out.push(m(`${lib}: bundle size added`, `${(bytes.gzip / 1024).toFixed(1)} KB gzip (${(bytes.bytes / 1024).toFixed(1)} KB minified)`, '', `esbuild, minified and tree-shaken, React external: ${IMPORTS[lib]}`));
      }
      return out;
    });
  } finally {
    rmSync(built.dir, { recursive: true, force: true });
  }
};
