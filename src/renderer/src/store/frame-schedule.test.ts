import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameSchedule } from './frame-schedule';

/** A page's animation frames, run by hand. */
function handRunFrames() {
  const frames = new Map<number, () => void>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => (frames.set(next, callback), next++));
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => frames.delete(handle));
  return {
    pending: () => frames.size,
    run: () => {
      const due = [...frames.values()];
      frames.clear();
      due.forEach((callback) => callback());
    },
  };
}

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('frameSchedule', () => {
  it('flushes at the next frame, once, and takes its time limit back', async () => {
    const frames = handRunFrames();
    let flushed = 0;
    frameSchedule(20)(() => flushed++);
    frames.run();
    expect(flushed).toBe(1);
    await after(100); // the time limit passed: it was cancelled with the frame's flush
    expect(flushed).toBe(1);
  });

  it('with a time limit, flushes after it when no frame comes (a hidden tab paints nothing)', async () => {
    const frames = handRunFrames();
    let flushed = 0;
    frameSchedule(20)(() => flushed++);
    await after(200);
    expect(flushed).toBe(1);
    expect(frames.pending()).toBe(0); // the frame it asked for is given back
  });

  it('without a time limit waits for the frame however long it takes', async () => {
    const frames = handRunFrames();
    let flushed = 0;
    frameSchedule()(() => flushed++);
    await after(100);
    expect(flushed).toBe(0);
    frames.run();
    expect(flushed).toBe(1);
  });

  it('cancelled, it never flushes', async () => {
    const frames = handRunFrames();
    let flushed = 0;
    frameSchedule(20)(() => flushed++)();
    frames.run();
    await after(100);
    expect(flushed).toBe(0);
  });

  it('where there are no frames (Node), flushes after about one', async () => {
    let flushed = 0;
    frameSchedule()(() => flushed++);
    await after(200);
    expect(flushed).toBe(1);
  });
});
