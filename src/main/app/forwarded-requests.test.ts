import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlanningServices, type PlanningServices } from './planning-services';
import { carryOut } from './forwarded-requests';
import { callTool } from '../tools/define-tool';

let dataDir: string;
let services: PlanningServices | null = null;
afterEach(async () => {
  await services?.dispose();
  services = null;
  rmSync(dataDir, { recursive: true, force: true });
});

async function chatWithPlan(): Promise<{ services: PlanningServices; sessionId: string; planId: string; version: number }> {
  dataDir = mkdtempSync(join(tmpdir(), 'waypoint-forwarded-'));
  services = await createPlanningServices({ dataDir, style: 'structured', holder: 'test', warn: () => undefined });
  const { id } = services.chats.newSession();
  const create = services.plans.toolsFor('structured').find((t) => t.name === 'create_plan')!;
  const created = await callTool(create, { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump' }, { step_number: 2, description: 'Publish' }] }, { sessionId: id, signal: new AbortController().signal, settings: services.settings() });
  expect(created.ok).toBe(true);
  const plan = services.chats.getSession(id).plan!;
  return { services, sessionId: id, planId: plan.id, version: plan.version };
}

describe('a request another process forwarded to the chat this one writes', () => {
  it('a plan edit is applied as the user’s', async () => {
    const { services, sessionId, planId, version } = await chatWithPlan();
    carryOut(services.requests, sessionId, { kind: 'plan_edit', planId, version, edit: { kind: 'rename', stepId: 2, title: 'Publish to npm' } }, 'Waypoint');
    const plan = services.chats.getSession(sessionId).plan!;
    expect(plan.steps.map((s) => s.title)).toEqual(['Bump', 'Publish to npm']);
    expect(plan.version).toBeGreaterThan(version);
  });

  it('a plan edit the rules refuse changes nothing and is said in the chat, naming who sent it', async () => {
    const { services, sessionId, planId, version } = await chatWithPlan();
    const before = services.chats.getSession(sessionId).plan;
    carryOut(services.requests, sessionId, { kind: 'plan_edit', planId, version, edit: { kind: 'rename', stepId: 2, title: '   ' } }, 'Waypoint (web shell)');
    const after = services.chats.getSession(sessionId);
    expect(after.plan).toEqual(before);
    expect(after.transcript.at(-1)).toMatchObject({ kind: 'notice', level: 'warning', code: 'plan_edit_refused' });
    expect((after.transcript.at(-1) as { text: string }).text).toMatch(/^Your plan edit \(from Waypoint \(web shell\)\) was not applied: .+/);
  });
});
