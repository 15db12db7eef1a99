import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import { interruptedCommand, otherCommandAfterInterruption, SLOW_COMMAND } from '../../../test-support/scenarios/interrupted';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import { INTERRUPTED_EFFECT, REPEAT_AFTER_INTERRUPTION } from '../../shared/tool-results';
import type { ToolCallItem } from '../../shared/transcript';

/**
 * Side effects never repeated blindly (issue 27): a changing call cut off by Stop goes back to
 * Claude as "interrupted; its effect is unknown", its card says Interrupted, and the same call
 * made again asks for approval though commands are auto-approved — after a restart too.
 */
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function stoppedMidCommand(scenario: Scenario): Promise<string> {
  app = await startTestApp(scenario, { settings: { autoApproveCommands: true, retryDelayMs: 0 } });
  const { id } = await app.call('newSession', {});
  const from = app.events.length;
  await app.call('sendMessage', { sessionId: id, text: 'Run the slow step' });
  await app.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'tool_call' && e.item.status === 'running', from);
  await app.call('stop', { sessionId: id });
  await app.idle(id, from);
  return id;
}

const cards = (transcript: readonly { kind: string }[]) => transcript.filter((i): i is ToolCallItem => i.kind === 'tool_call');

describe('a changing call cut off by Stop', { timeout: 90_000 }, () => {
  it('is an is_error "effect unknown" result and an Interrupted card; the same call again asks, after a restart too', async () => {
    const id = await stoppedMidCommand(interruptedCommand);
    const { transcript } = await app!.call('getSession', { sessionId: id });
    expect(cards(transcript).at(-1)).toMatchObject({ name: 'run_command', status: 'error', interrupted: true, result: INTERRUPTED_EFFECT });
    const history = app!.services.chats.sessionState(id)!.history;
    expect(JSON.stringify(history.at(-1))).toContain(INTERRUPTED_EFFECT);

    await app!.restart();
    const from = app!.events.length;
    await app!.call('sendMessage', { sessionId: id, text: 'Go on' });
    const asked = await app!.waitFor((e) => e.type === 'approval_requested' && e.sessionId === id, from);
    expect(asked).toMatchObject({ request: { toolName: 'run_command', protected: REPEAT_AFTER_INTERRUPTION, scope: null } });
    expect(asked.type === 'approval_requested' && asked.request.dryRun).toContain(SLOW_COMMAND);
  });

  it('a different call after it runs unasked', async () => {
    const id = await stoppedMidCommand(otherCommandAfterInterruption);
    const from = app!.events.length;
    await app!.call('sendMessage', { sessionId: id, text: 'Go on' });
    await app!.idle(id, from);
    expect(app!.events.slice(from).some((e) => e.type === 'approval_requested')).toBe(false);
    const { transcript } = await app!.call('getSession', { sessionId: id });
    expect(cards(transcript).at(-1)).toMatchObject({ status: 'done', result: expect.stringContaining('other') });
  });
});
