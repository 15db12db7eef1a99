import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings';
import type { SessionSummary } from '../../shared/transcript';
import { useDataFolder } from '../../../test-support/main/data-folder-writers';
import { instancesPerTest } from '../../../test-support/main/persistence-test-kit';
import { SEED_GRID_PLAN } from '../../../test-support/main/seed-tool-calls';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { withPlanProgress } from '../chats/chat-session';
import { parseLog } from './log-reader';
import type { LogRecord } from './log-records';
import { replay } from './replay';

/**
 * A planning call's plan record carries the plan, and the reader derives the sidebar's progress
 * from it as the live chat does (replay.ts): the summary is logged after it only when it changed in
 * more than that (issue 24: one record less per planning call), and the chat read back from the
 * log is still exactly the live one.
 */
const records = (sessionsDir: string, id: string): LogRecord[] => parseLog(readFileSync(join(sessionsDir, id, 'events.jsonl'), 'utf8')).records;

/** Summary records that say only what the plan record just before them says (what a reader derives anyway). */
function derivableSummaries(logged: readonly LogRecord[]): number {
  let readAs: SessionSummary | null = null;
  let redundant = 0;
  for (const [index, record] of logged.entries()) {
    if (record.type === 'created') readAs = record.session;
    if (record.type === 'summary') {
      const before = logged[index - 1];
      if (readAs && before?.type === 'plan' && JSON.stringify(record.session) === JSON.stringify(withPlanProgress(readAs, before.plan))) redundant++;
      readAs = record.session;
    }
    if (record.type === 'plan' && readAs) readAs = withPlanProgress(readAs, record.plan);
  }
  return redundant;
}

describe('a plan change and the chat summary in the log', () => {
  const kit = instancesPerTest('waypoint-plan-summary-', plansStructured);

  it('a run worked through a plan: no summary record only repeats a plan record, and replay gives the live summary and plan', async () => {
    const app = await kit.start();
    const { id } = app.chats.newSession();
    app.chat.sendMessage(id, 'Create a structural grid');
    await app.idle(id);
    const logged = records(join(kit.dir, 'sessions'), id);
    expect(logged.filter((r) => r.type === 'plan').length).toBeGreaterThan(5);
    expect(derivableSummaries(logged)).toBe(0);
    const read = replay(logged)!;
    expect(read.summary).toEqual(app.chats.sessionState(id)!.summary);
    expect(read.summary.planProgress).toMatchObject({ total: 3 });
    expect(read.plan).toEqual(app.plans.getPlan(id));
  });
});

describe('any sequence of planning calls and renames', () => {
  const folder = useDataFolder('waypoint-plan-summary-prop-');
  type Op = { kind: 'step'; action: 'start_step' | 'complete_step' | 'fail_step' | 'skip_step'; step: number } | { kind: 'rename'; title: string } | { kind: 'add' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('step' as const), action: fc.constantFrom('start_step' as const, 'complete_step' as const, 'fail_step' as const, 'skip_step' as const), step: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant('rename' as const), title: fc.string({ minLength: 1, maxLength: 12 }) }),
    fc.constant({ kind: 'add' as const }),
  );

  it('reads back from the log as the live chat has it (summary and plan)', async () => {
    const app = await folder.writer('the Waypoint app');
    const tools = app.plans.toolsFor('structured');
    const call = async (sessionId: string, name: string, input: unknown) => {
      const tool = tools.find((t) => t.name === name)!;
      const parsed = tool.parse(input);
      if (parsed.ok) await tool.execute(parsed.value, { sessionId, toolUseId: `toolu_${name}`, signal: new AbortController().signal, settings: defaultSettings() });
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 14 }), async (ops) => {
        const { id } = app.chats.newSession({ title: 'Planned' });
        await call(id, 'create_plan', SEED_GRID_PLAN);
        for (const o of ops) {
          if (o.kind === 'rename') app.chats.renameSession(id, o.title);
          else if (o.kind === 'add') await call(id, 'update_plan', { action: 'add_step', new_step: { description: 'Tag the grids', after_step: 1 } });
          else await call(id, 'update_plan', { action: o.action, step_number: o.step, ...(o.action === 'complete_step' ? { result: 'done' } : { reason: 'because' }) });
        }
        const logged = records(folder.sessionsDir, id);
        expect(derivableSummaries(logged)).toBe(0);
        const read = replay(logged)!;
        expect(read.summary).toEqual(app.chats.sessionState(id)!.summary);
        expect(read.plan).toEqual(app.plans.getPlan(id));
      }),
      { numRuns: 25 },
    );
  });
});
