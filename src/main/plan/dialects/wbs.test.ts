import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, planHarness } from '../../../../test-support/main/plan-test-kit';

const golden = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../fixtures/wbs-after-step-2.md'), 'utf8');

const step1 = [
  { id: '1.0', title: 'Project Setup', description: 'Initialize project structure and dependencies', level: 0, priority: 'High' },
  { id: '2.0', title: 'Game Logic Development', description: 'Implement core 2048 game mechanics', level: 0, priority: 'High', order: 1 },
];
const step2 = [
  { id: '1.1', title: 'Create React Project', description: 'Initialize React app with TypeScript', level: 1, parent_id: '1.0', priority: 'High', order: 1 },
  { id: '1.2', title: 'Setup Firebase', description: 'Configure Firebase project and authentication', level: 1, parent_id: '1.0', priority: 'High', dependencies: ['1.1'], order: 2 },
];
const step3 = [
  { id: '2.1', title: 'Grid State Management', description: 'Implement 4x4 grid state with Redux', level: 1, parent_id: '2.0', priority: 'High', dependencies: ['1.1'], order: 1 },
  { id: '2.2', title: 'Tile Movement Logic', description: 'Implement swipe detection and tile merging', level: 1, parent_id: '2.0', priority: 'High', dependencies: ['2.1'], order: 2 },
];

describe('wbs dialect', () => {
  let h = planHarness();
  afterEach(() => {
    h.cleanup();
    h = planHarness();
  });

  async function init(chat = 's1') {
    const res = JSON.parse(await h.must('wbs', 'planning_initialize', { problem_statement: 'Build a real-time multiplayer 2048 game with Firebase', project_name: 'Multiplayer 2048' }, chat));
    return res as { sessionId: string; outputPath: string };
  }
  const add = (session_id: string, step_number: number, wbs_items: unknown[]) =>
    h.call('wbs', 'planning_add_step', { session_id, step_number, planning_analysis: 'analysis', wbs_items });

  it('initializes with the seed response and the initial WBS.md', async () => {
    const res = JSON.parse(await h.must('wbs', 'planning_initialize', { problem_statement: 'Build a task management app for teams' }));
    expect(res).toMatchObject({ success: true, projectName: 'Build a task management', nextAction: 'add_step' });
    expect(res.sessionId).toMatch(/^planning_\d+_[0-9a-f]{8}$/);
    expect(res.outputPath).toBe(join(h.dataDir, 'sessions', 's1', 'WBS.md'));
    expect(res.message).toBe(`Session initialized. WBS file created at: ${res.outputPath}`);
    expect(res.instructions.next_step).toMatch(/planning_add_step/);
    expect(readFileSync(res.outputPath, 'utf8')).toContain('*No WBS items yet*\n\n## Planning Summary\n\n- **Steps**: 0\n- **WBS Items**: 0\n- **Status**: active\n');
  });

  it('writes WBS.md exactly like the seed after step 2 (golden), atomically', async () => {
    const { sessionId, outputPath } = await init();
    const r1 = JSON.parse(await h.must('wbs', 'planning_add_step', { session_id: sessionId, step_number: 1, planning_analysis: 'phases', wbs_items: step1 }));
    expect(r1).toEqual({
      success: true, sessionId, stepNumber: 1, wbsItemsAdded: 2, totalWbsItems: 2, wbsFileUpdated: true, outputPath,
      message: 'Step 1 completed. Added 2 WBS items. WBS file updated.', nextAction: 'add_step_or_finalize',
    });
    await h.must('wbs', 'planning_add_step', { session_id: sessionId, step_number: 2, planning_analysis: 'setup', wbs_items: step2 });
    expect(readFileSync(outputPath, 'utf8')).toBe(golden);
    expect(readdirSync(dirname(outputPath))).toEqual(['WBS.md']);
  });

  it('maps items to steps, reports status, finalizes and lists', async () => {
    const { sessionId, outputPath } = await init();
    for (const [n, items] of [step1, step2, step3].entries()) expect((await add(sessionId, n + 1, items)).ok).toBe(true);
    const plan = h.service.getPlan('s1');
    expect(plan?.steps.map((s) => s.label)).toEqual(['1.0', '1.1', '1.2', '2.0', '2.1', '2.2']);
    const byLabel = new Map(plan?.steps.map((s) => [s.label, s]));
    expect(byLabel.get('1.2')).toMatchObject({ parentId: byLabel.get('1.0')?.id, dependsOn: [byLabel.get('1.1')?.id], priority: 'high' });
    const status = JSON.parse(await h.must('wbs', 'planning_status', { session_id: sessionId }));
    expect(status).toEqual({ success: true, sessionId, status: 'active', projectName: 'Multiplayer 2048', currentStep: 3, totalSteps: 3, totalWbsItems: 6, outputPath });
    const fin = JSON.parse(await h.must('wbs', 'planning_finalize', { session_id: sessionId }));
    expect(fin).toEqual({ success: true, sessionId, status: 'completed', totalSteps: 3, totalWbsItems: 6, outputPath, message: 'Planning completed! 6 WBS items generated.' });
    expect(h.service.getPlan('s1')?.status).toBe('completed');
    expect(readFileSync(outputPath, 'utf8')).toContain('- **Steps**: 3\n- **WBS Items**: 6\n- **Status**: completed\n');
    const list = JSON.parse(await h.must('wbs', 'planning_list', {}));
    expect(list).toMatchObject({ success: true, totalSessions: 1, sessions: [{ sessionId, projectName: 'Multiplayer 2048', status: 'completed', totalSteps: 3, totalWbsItems: 6 }] });
    expect(errorOf(await add(sessionId, 4, []))).toMatch(/is completed; call planning_initialize/);
  });

  it('validates like the seed, leaving plan and file unchanged', async () => {
    const { sessionId, outputPath } = await init();
    await add(sessionId, 1, step1);
    const before = h.service.getPlan('s1');
    const file = readFileSync(outputPath, 'utf8');
    const events = h.events.length;
    const cases: [unknown[], RegExp][] = [
      [[{ id: '1.1', title: 'x', level: 1, priority: 'High' }], /parent_id is required for child items \(level > 0\)/],
      [[{ id: '3.1', title: 'x', level: 1, parent_id: '3.0', priority: 'High' }], /Parent "3.0" of item 3.1 not found/],
      [[{ id: '1.1', title: 'x', level: 1, parent_id: '1.2', priority: 'High' }, { id: '1.2', title: 'y', level: 1, parent_id: '1.0', priority: 'High' }], /Parent "1.2" of item 1.1 not found/],
      [[{ id: '1.1', title: 'x', level: 2, parent_id: '1.0', priority: 'High' }], /use level 1/],
      [[{ id: '1.1', title: 'x', level: 1, parent_id: '1.0', priority: 'Urgent' }], /priority must be "High", "Medium" or "Low"/],
      [[{ id: '1.0', title: 'dup', level: 0, priority: 'Low' }], /WBS id "1.0" already exists/],
      [[{ id: '3.0', title: 'x', level: 0, priority: 'Low', dependencies: ['9.9'] }], /Dependency "9.9" of item 3.0 does not exist/],
      [[{ id: '3.0', title: 'a', level: 0, priority: 'Low', dependencies: ['4.0'] }, { id: '4.0', title: 'b', level: 0, priority: 'Low', dependencies: ['3.0'] }], /Circular dependency: (3.0 → 4.0 → 3.0|4.0 → 3.0 → 4.0)/],
      [[{ id: '3.0', title: '  ', level: 0, priority: 'Low' }], /Item 3.0's title is empty/],
    ];
    for (const [items, message] of cases) expect(errorOf(await add(sessionId, 2, items))).toMatch(message);
    expect(errorOf(await add('planning_0_deadbeef', 2, step2))).toMatch(/Session not found.*call planning_initialize first/i);
    expect(errorOf(await h.call('wbs', 'planning_status', { session_id: 'nope' }))).toMatch(/Session not found/);
    expect(h.service.getPlan('s1')).toBe(before);
    expect(h.events.length).toBe(events);
    expect(readFileSync(outputPath, 'utf8')).toBe(file);
  });

  it('keeps one WBS.md per chat, with unsafe chat ids made safe', async () => {
    const { outputPath } = await init('../evil/..');
    expect(outputPath.startsWith(join(h.dataDir, 'sessions'))).toBe(true);
    expect(existsSync(outputPath)).toBe(true);
  });
});
