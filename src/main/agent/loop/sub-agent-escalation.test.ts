import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { closeRecoveryChats, startRecoveryChat } from '../../../../test-support/main/recovery-test-setup';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../../../../test-support/scenarios/recovery-escalation';

afterEach(closeRecoveryChats);

it("a sub-agent's step that keeps failing escalates in the chat, labelled; \"skip\" skips its own step and it finishes, then the chat", async () => {
  const { service, chats, recorder, session, plans, workspace } = await startRecoveryChat(
    {
      name: 'sub-agent-escalation',
      onExhausted: 'echo',
      turns: [
        { kind: 'tool_use', calls: [{ name: 'delegate', id: 'toolu_sub', input: { task: 'Tidy the notes file' } }] },
        // The sub-agent's turns: its plan, three failing edits, then (after skip) step 2 and its reply.
        ...recoveryEscalationSkip.turns,
        { kind: 'text', text: 'The chat heard the sub-agent.' },
      ],
    },
    { files: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT } },
  );
  service.sendMessage(session.id, 'Tidy up');
  const asked = await recorder.waitFor((e) => e.type === 'escalation_requested' && e.sessionId === session.id);
  if (asked.type !== 'escalation_requested') throw new Error('unreachable');
  expect(asked.request).toMatchObject({ stepId: 1, agent: { title: 'Tidy the notes file', depth: 1 } });
  expect(chats.getSession(session.id).runState.status).toBe('awaiting_escalation');
  // The chat has no plan of its own: the escalation is the sub-agent's.
  expect(plans.getPlan(session.id)).toBeNull();

  expect(service.answerEscalation(session.id, asked.request.id, { kind: 'skip' })).toEqual({ accepted: true });
  await recorder.idle(session.id);
  const agent = chats.getSession(session.id).subagents![0]!;
  expect(agent.status).toBe('done');
  expect(agent.plan?.steps.map((s) => s.status)).toEqual(['skipped', 'completed']);
  expect(agent.result).toContain('Step 1 was skipped as you asked; step 2 is done.');
  const last = chats.getSession(session.id).transcript.at(-1);
  expect(last).toMatchObject({ kind: 'assistant', text: 'The chat heard the sub-agent.' });
  expect(await readFile(join(workspace, RECOVERY_FILE), 'utf8')).toBe(RECOVERY_FILE_TEXT);
}, 60_000);
