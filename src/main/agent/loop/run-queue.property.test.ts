import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue';

/**
 * What a person does to a few chats: send a message (chat i), a run ends (the i-th running),
 * Stop on a queued chat (the i-th queued), and Settings' "Runs at once" changing; and, as a
 * restart does, the queue rebuilt from the tickets the chats kept.
 */
const action = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), chat: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('end' as const), i: fc.nat() }),
  fc.record({ kind: fc.constant('stop' as const), i: fc.nat() }),
  fc.record({ kind: fc.constant('limit' as const), limit: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ kind: fc.constant('restart' as const) }),
);

describe('RunQueue', () => {
  it('starts queued chats in the order sent, never more than the limit, and never leaves a slot idle while one waits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(action, { maxLength: 60 }), (initialLimit, actions) => {
        let queue = new RunQueue();
        let limit = initialLimit;
        const running = new Set<string>();
        const tickets = new Map<string, number>(); // what each queued chat keeps in its summary
        // The chats queued now, in the order their messages were sent (a chat queued, started and
        // queued again is at its new place).
        const waiting: string[] = [];
        let clock = 1_000;
        const drain = () => {
          const took = queue.take(running.size, limit);
          // The first sent start first.
          expect(took).toEqual(waiting.slice(0, took.length));
          waiting.splice(0, took.length);
          for (const id of took) {
            tickets.delete(id);
            running.add(id);
          }
          // A lowered limit may leave more going than it allows; the queue never adds to them.
          if (took.length > 0) expect(running.size).toBeLessThanOrEqual(limit);
        };
        for (const step of actions) {
          clock += step.kind === 'send' ? 0 : 1; // several sends in one millisecond too
          if (step.kind === 'send') {
            const id = `c${step.chat}`;
            if (running.has(id) || queue.has(id)) continue; // a second message joins the first
            if (running.size < limit) {
              running.add(id);
              continue;
            }
            const ticket = queue.ticket(clock);
            queue.add({ id, ticket });
            tickets.set(id, ticket);
            waiting.push(id);
          } else if (step.kind === 'end') {
            const id = [...running][step.i % Math.max(1, running.size)];
            if (id) running.delete(id);
          } else if (step.kind === 'stop') {
            const id = queue.ids()[step.i % Math.max(1, queue.ids().length)];
            if (id) {
              expect(queue.remove(id)).toBe(true);
              tickets.delete(id);
              waiting.splice(waiting.indexOf(id), 1);
            }
          } else if (step.kind === 'limit') {
            limit = step.limit;
          } else {
            // Runs do not survive a restart; queued chats do, from their tickets, in any reading order.
            const kept = [...tickets].reverse();
            queue = new RunQueue();
            running.clear();
            for (const [id, ticket] of kept) queue.add({ id, ticket });
          }
          drain();
          // Never both queued and running; never more than the limit started by the queue; no idle slot while one waits.
          for (const id of queue.ids()) expect(running.has(id)).toBe(false);
          if (queue.ids().length > 0) expect(running.size).toBeGreaterThanOrEqual(limit);
          expect(queue.ids()).toEqual(waiting);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('orders equal tickets by id, and a chat queued twice keeps its first place', () => {
    const queue = new RunQueue();
    queue.add({ id: 'b', ticket: 5 });
    queue.add({ id: 'a', ticket: 5 });
    queue.add({ id: 'c', ticket: 3 });
    queue.add({ id: 'c', ticket: 9 });
    expect(queue.ids()).toEqual(['c', 'a', 'b']);
    expect(queue.ticket(0)).toBe(6);
    expect(queue.take(3, 4)).toEqual(['c']);
    expect(queue.take(5, 4)).toEqual([]);
    expect(queue.ids()).toEqual(['a', 'b']);
  });
});
