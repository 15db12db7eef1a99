import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, startChat as setup, testTool } from '../../../../test-support/main/chat-test-setup';
import { ok } from '../../tools/tool';

afterEach(closeAll);

/** Issue 15 item 8: a long tool loop once added an abort listener per turn to the run's signal and never removed it. */
describe('a 45-turn tool loop', () => {
  it('leaves no abort listeners behind and raises no MaxListenersExceededWarning', async () => {
    const TURNS = 45; // under the default "Max model turns" (50)
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    let peak = 0;
    const signals = new Set<AbortSignal>();
    const probe = testTool('probe', async (_input, ctx) => {
      signals.add(ctx.signal);
      peak = Math.max(peak, EventEmitter.getEventListeners(ctx.signal, 'abort').length);
      return ok('fine');
    });
    try {
      const { service, chats, recorder, session } = await setup(
        {
          name: 'long loop',
          turns: [
            ...Array.from({ length: TURNS }, (_, i) => ({ kind: 'tool_use' as const, calls: [{ name: 'probe', input: { i }, id: `toolu_${i}` }] })),
            { kind: 'text' as const, text: 'All done.' },
          ],
        },
        { tools: [probe] },
      );
      service.sendMessage(session.id, 'loop');
      await recorder.idle(session.id);
      expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ text: 'All done.' });
      // Let the warning (emitted on nextTick) arrive if there is one.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map(String)).toEqual([]);
      expect(signals.size).toBeGreaterThan(0);
      // A handful at a time (the SDK's request, the tool's own), never one per turn so far.
      expect(peak).toBeLessThan(6);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);
});
