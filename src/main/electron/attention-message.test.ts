import { describe, expect, it } from 'vitest';
import { attentionMessage } from './attention-message';

describe('attentionMessage', () => {
  const request = {
    id: 'r', sessionId: 's', stepId: 3, stepTitle: 'Place columns', toolName: 'edit_file', error: 'conflict', errorClass: 'conflict' as const, attempts: [], createdAt: '',
  };
  it('words an escalation for the desktop notification', () => {
    expect(attentionMessage({ type: 'escalation_requested', sessionId: 's', request })).toEqual({
      title: 'Waypoint needs your attention',
      body: 'Step 3 ("Place columns") keeps failing. Skip it, abort the plan, or give Claude guidance.',
    });
    expect(attentionMessage({ type: 'escalation_requested', sessionId: 's', request: { ...request, stepId: null } })!.body).toMatch(/^A task keeps failing/);
  });
  it('words an approval and a question from Claude', () => {
    const approval = { id: 'a', sessionId: 's', toolUseId: 't', toolName: 'run_command', kind: 'command' as const, summary: 'Run `npm test`', dryRun: '', createdAt: '' };
    expect(attentionMessage({ type: 'approval_requested', sessionId: 's', request: approval })).toEqual({
      title: 'Waypoint needs your approval',
      body: 'Run `npm test` — approve or deny it in Waypoint.',
    });
    const question = { id: 'q', sessionId: 's', toolUseId: 't', question: 'Which database?', options: ['Postgres', 'SQLite'], allowText: false, createdAt: '' };
    expect(attentionMessage({ type: 'question_requested', sessionId: 's', request: question })).toEqual({ title: 'Claude asks', body: 'Which database? (Postgres / SQLite)' });
    expect(attentionMessage({ type: 'question_requested', sessionId: 's', request: { ...question, question: 'x'.repeat(500), options: [] } })!.body).toHaveLength(160);
  });
  it('ignores everything else', () => {
    expect(attentionMessage({ type: 'run_state', sessionId: 's', state: { status: 'idle' } })).toBeNull();
  });
});
