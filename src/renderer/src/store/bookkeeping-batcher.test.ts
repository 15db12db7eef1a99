import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../../shared/contract';
import { createBookkeepingBatcher, type BookkeepingEvent } from './bookkeeping-batcher';

const running = (phase: 'streaming' | 'tools'): BookkeepingEvent => ({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase } });

describe('bookkeeping batcher', () => {
  it('applies what it holds in order, after what came before it, and does nothing (not even that) when empty', () => {
    const log: string[] = [];
    const frames: Array<() => void> = [];
    const batcher = createBookkeepingBatcher(
      (event: WaypointEvent) => log.push(event.type === 'run_state' && event.state.status === 'running' ? event.state.phase : event.type),
      (flush) => (frames.push(flush), () => undefined),
      () => log.push('held plans'),
    );
    batcher.flush();
    expect(log).toEqual([]); // a plan batch waiting for its frame is not cut short by an empty flush
    batcher.push(running('streaming'));
    batcher.push(running('tools'));
    expect(frames).toHaveLength(1);
    expect(log).toEqual([]);
    frames[0]!();
    expect(log).toEqual(['held plans', 'streaming', 'tools']);
    frames[0]!(); // a late frame finds nothing left
    expect(log).toHaveLength(3);
  });
});
