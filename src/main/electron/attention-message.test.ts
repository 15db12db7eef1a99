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
  it('ignores everything else', () => {
    expect(attentionMessage({ type: 'run_state', sessionId: 's', state: { status: 'idle' } })).toBeNull();
  });
});
