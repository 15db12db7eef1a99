import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import { plansChecklist } from '../../../../test-support/scenarios/plans-checklist';
import { plansSession } from '../../../../test-support/scenarios/plans-session';
import { plansStructured } from '../../../../test-support/scenarios/plans-structured';
import { plansWbs } from '../../../../test-support/scenarios/plans-wbs';
import type { Dialect } from '../../../shared/plan';
import { PlanService } from '../../plan/plan-service';
import { chatsAndRuns } from '../../../../test-support/main/chats-and-runs';
import { EventRecorder, keySource, settingsSource } from '../../../../test-support/main/chat-test-harness';
import { ToolRegistry } from '../../tools/tool-registry';
import { createWorkspaceTools } from '../../tools/workspace/index';

// The loop, the real PlanService and the real SDK against scripted Claude, one run per dialect:
// the seeds' own examples, end to end.

const KEY = 'sk-ant-test-plans-key';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ToolResultBlock {
  type: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

async function runScenario(scenario: Scenario, dialect: Dialect) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-plans-'));
  const server: ScriptedServer = await startScriptedServer({ scenario, requireApiKey: KEY });
  const plans = new PlanService({ dataDir });
  // The scenarios' verification steps check something with a workspace tool (list_directory).
  const tools = new ToolRegistry();
  for (const tool of createWorkspaceTools(dataDir)) tools.register(tool);
  const { chats, chat: service, dispose: disposeChats } = chatsAndRuns({
    settings: settingsSource({ planningStyle: dialect }),
    apiKey: keySource(KEY),
    plans,
    tools,
    baseURL: server.url,
    workspace: dataDir,
  });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => server.close());
  cleanups.push(() => disposeChats());
  const recorder = new EventRecorder();
  chats.onEvent(recorder.listener);
  const versions: number[] = [];
  plans.onPlanUpdated((u) => versions.push(u.plan.version));
  const session = chats.newSession();
  service.sendMessage(session.id, 'Please do the planned work.');
  await recorder.idle(session.id, 0, 15_000);
  const toolResults = server.requests.flatMap((r) => {
    const last = (r.body as { messages: { content: string | ToolResultBlock[] }[] }).messages.at(-1)!;
    return Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
  });
  return { service, chats, plans, server, session, versions, toolResults, dataDir };
}

const expectStrictlyRising = (versions: number[]) => {
  for (let i = 1; i < versions.length; i++) expect(versions[i]!).toBe(versions[i - 1]! + 1);
};

describe('the loop drives every planning dialect end to end', () => {
  it('structured: the 3×3 grid plan is created, worked through and completed with a summary', async () => {
    const run = await runScenario(plansStructured, 'structured');
    const plan = run.plans.getPlan(run.session.id)!;
    expect(plan.status).toBe('completed');
    expect(plan.summary).toMatchObject({ total: 3, completed: 3, percent: 100 });
    expect(plan.completion?.status).toBe('success');
    expect(run.toolResults.every((r) => r.is_error !== true)).toBe(true);
    expect(run.toolResults).toHaveLength(plansStructured.turns.flatMap((t) => (t.kind === 'tool_use' ? t.calls : [])).length);
    expectStrictlyRising(run.versions);
    const transcript = run.chats.getSession(run.session.id).transcript;
    expect(transcript.filter((i) => i.kind === 'plan_change').map((i) => (i as { text: string }).text)).toContain(
      "Updated plan: step 1 “Create vertical grid lines A, B, C at 25' spacing” completed",
    );
    expect(transcript.filter((i) => i.kind === 'plan_completion')).toHaveLength(1);
    expect(transcript.at(-1)).toMatchObject({ kind: 'assistant', status: 'done' });
  });

  it('checklist: whole-list updates answer with the seed JSON and finish all six steps', async () => {
    const run = await runScenario(plansChecklist, 'checklist');
    const plan = run.plans.getPlan(run.session.id)!;
    expect(plan.steps.map((s) => s.status)).toEqual(Array(6).fill('completed'));
    expect(plan.status).toBe('completed');
    const last = JSON.parse(String(run.toolResults.at(-1)!.content)) as Record<string, unknown>;
    expect(last).toMatchObject({ success: true, summary: { total: 6, completed: 6, in_progress: 0, pending: 0 } });
    expect(typeof last.version).toBe('number');
    expectStrictlyRising(run.versions);
  });

  it('wbs: the multiplayer-2048 WBS is built step by step and WBS.md is written', async () => {
    const run = await runScenario(plansWbs, 'wbs');
    expect(run.toolResults.every((r) => r.is_error !== true)).toBe(true);
    const results = run.toolResults.map((r) => JSON.parse(String(r.content)) as Record<string, unknown>);
    expect(results.every((r) => r.success === true && typeof r.sessionId === 'string')).toBe(true);
    const outputPath = String(results.at(-1)!.outputPath);
    expect(outputPath.startsWith(run.dataDir)).toBe(true);
    expect(existsSync(outputPath)).toBe(true);
    const wbs = readFileSync(outputPath, 'utf8');
    expect(wbs).toContain('# Project: Multiplayer 2048');
    expect(wbs).toContain('- Dependencies: 1.1 (Create React Project)');
    expect(wbs).toContain('- **Status**: completed');
    const plan = run.plans.getPlan(run.session.id)!;
    expect(plan.steps).toHaveLength(6);
    expect(plan.status).toBe('completed');
  });

  it('session: setup, add and update steps until the plan completes itself', async () => {
    const run = await runScenario(plansSession, 'session');
    const plan = run.plans.getPlan(run.session.id)!;
    expect(plan.steps.map((s) => [s.id, s.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'completed'],
    ]);
    expect(plan.status).toBe('completed');
    expect(run.toolResults.every((r) => r.is_error !== true)).toBe(true);
  });

  it('an invalid planning call goes back to Claude as an is_error result and changes nothing', async () => {
    const run = await runScenario(
      {
        name: 'bad-plan',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'G', steps: [{ step_number: 1, description: 'A' }] } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 7 } }] },
          { kind: 'text', text: 'Sorry.' },
        ],
      },
      'structured',
    );
    const bad = run.toolResults[1]!;
    expect(bad.is_error).toBe(true);
    expect(String(bad.content)).toMatch(/step 7/i);
    expect(run.versions).toHaveLength(1);
    expect(run.plans.getPlan(run.session.id)!.steps[0]!.status).toBe('pending');
  });
});
