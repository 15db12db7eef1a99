import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlanningServices, type PlanningServices } from '../../app/planning-services';
import { createPlanningServer } from './planning-server';

let dataDir: string;
let services: PlanningServices | null = null;
afterEach(async () => {
  await services?.dispose();
  services = null;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the planning MCP server (in process)', () => {
  it("a change the user made in Waypoint ends the client's next tool result, once", async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'waypoint-mcp-notes-'));
    services = await createPlanningServices({ dataDir, style: 'structured', holder: 'test', warn: () => undefined });
    const { server, dispose } = createPlanningServer(services, '0.0.0', () => undefined);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'claude-code', version: '1' });
    await client.connect(clientSide);
    const text = async (name: string, args: Record<string, unknown>) =>
      ((await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> }).content[0]!.text;

    await text('create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump' }, { step_number: 2, description: 'Publish' }] });
    const [chat] = services.chats.listSessions();
    // What a user edit does in the writer's process: a plan change made by the user.
    services.plans.skipStep(chat!.id, 1, 'Done by hand', { kind: 'escalation', by: 'user', answer: 'skip' });

    const next = await text('update_plan', { action: 'start_step', step_number: 2 });
    expect(next).toMatch(/^Updated plan: step 2 started[\s\S]*\n\nThe user edited the plan: step 1 “Bump” skipped\.$/);
    const after = await text('update_plan', { action: 'complete_step', step_number: 2 });
    expect(after).not.toContain('The user edited the plan');
    await client.close();
    dispose();
  });
});
