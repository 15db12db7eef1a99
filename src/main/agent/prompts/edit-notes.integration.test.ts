import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../../test-support/scripted-api/server';
import { scripted, startInstance } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { messagesOf, testTool } from '../../../../test-support/main/chat-test-setup';
import type { UserEdit } from '../../../shared/plan-edit';
import { ok } from '../../tools/tool';

// The user edits the plan while Claude works (docs/contract.md §2): Claude learns of it in its very next
// request — here the one carrying a tool result — as a text block at the end of the last user
// message, one clause per edit; its call to start a step the user skipped is refused, saying so;
// and edits made between turns ride at the end of the user's next message.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('edit notes', () => {
  it('reach the very next request, a tool-result request included, and a later user message', async () => {
    let toolStarted!: () => void;
    const started = new Promise<void>((r) => (toolStarted = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    // A slow tool: the user edits the plan while it runs.
    const slow = testTool('slow_read', async () => {
      toolStarted();
      await released;
      return ok('read');
    });
    const server: ScriptedServer = await scripted({
      name: 'edit-notes',
      turns: [
        {
          kind: 'tool_use',
          calls: [
            { name: 'create_plan', input: { goal: 'Release', steps: ['Build', 'Test', 'Tag'].map((description, i) => ({ step_number: i + 1, description })) } },
            { name: 'update_plan', input: { action: 'start_step', step_number: 1 } },
            { name: 'slow_read', input: {} },
          ],
        },
        { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 3 } }] },
        { kind: 'text', text: 'Noted: step 3 is skipped.' },
      ],
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'wp-editnotes-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => server.close());
    const app = await startInstance(dataDir, server.url, settingsSource(), [slow]);
    cleanups.push(() => app.close());
    const session = app.chats.newSession();
    const edit = (e: UserEdit) => {
      const plan = app.chats.getSession(session.id).plan!;
      return app.chats.editPlan(session.id, { planId: plan.id, version: plan.version, edit: e });
    };

    app.chat.sendMessage(session.id, 'Release it');
    await started;
    // What the first request cost: the one listed call (planning calls are not listed) carries it all.
    const firstCost = app.chats.listSessions()[0]?.usage?.costUsd ?? 0;
    expect(firstCost).toBeGreaterThan(0);
    // While Claude works: three edits, applied at once.
    edit({ kind: 'rename', stepId: 2, title: 'Run all tests' });
    edit({ kind: 'skip', stepId: 3 });
    const { version } = edit({ kind: 'add', title: 'Update the changelog' });
    expect(app.chats.getSession(session.id).plan!.steps.map((s) => `${s.id}:${s.title}:${s.status}`)).toEqual([
      '1:Build:in_progress',
      '2:Run all tests:pending',
      '3:Tag:skipped',
      '4:Update the changelog:pending',
    ]);
    release();
    await app.idle(session.id);

    // The tool-result request: the note is the last block of the last user message.
    const last = messagesOf(server, 1).at(-1)!;
    const blocks = last.content as { type: string; text?: string }[];
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'tool_result', 'text']);
    // The plan version when the request went: one more than the last edit's, for the slow call recorded on step 1.
    expect(blocks.at(-1)?.text).toBe(`The user edited the plan: renamed 2 "Test" to "Run all tests"; skipped 3 "Tag"; added 4 "Update the changelog". (Plan v${version + 1}.)`);
    expect(app.chats.getSession(session.id).plan!.steps[0]?.calls).toEqual([expect.objectContaining({ tool: 'slow_read', ok: true })]);
    expect(app.chats.getSession(session.id).plan!.steps[0]?.calls?.[0]?.costUsd).toBeCloseTo(firstCost, 12);
    // Claude's start of the skipped step is refused with a tool error saying so.
    const refused = (messagesOf(server, 2).at(-1)!.content as { type: string; content?: unknown; is_error?: boolean }[])[0];
    expect(refused).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(refused?.content)).toMatch(/^The user skipped step 3 "Tag", so it can't be started, completed or failed\./);
    // Told once: the request after it repeats nothing new.
    expect(JSON.stringify(messagesOf(server, 2).at(-1))).not.toContain('The user edited the plan');

    // Between turns: the edit rides at the end of the user's next message.
    edit({ kind: 'move', stepId: 4, direction: 'up' });
    app.chat.sendMessage(session.id, 'Go on');
    await app.idle(session.id);
    const next = messagesOf(server, 3).at(-1)!.content as { type: string; text?: string }[];
    expect(next.map((b) => b.text)).toEqual(['Go on', expect.stringMatching(/^The user edited the plan: moved 4 "Update the changelog" up\. \(Plan v\d+\.\)$/)]);

    // After a restart nothing is told twice: the history says how far Claude was told.
    await app.close();
    const again = await startInstance(dataDir, server.url, settingsSource(), [slow]);
    cleanups.push(() => again.close());
    again.chat.sendMessage(session.id, 'And now?');
    await again.idle(session.id);
    expect(JSON.stringify(messagesOf(server, 4).at(-1))).not.toContain('The user edited the plan');
  });
});
