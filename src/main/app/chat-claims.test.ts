import { describe, expect, it } from 'vitest';
import { CALL_NAMES, type CallName } from '../../shared/contract';
import type { InboxReply } from '../store/chat-inbox';
import { UserFacingError } from '../common/errors';
import type { CallHandlers } from './call-router';
import { claimingHandlers, type ChatClaims } from './chat-claims';

describe('chat claims at the call boundary', () => {
  const handlers = Object.fromEntries(CALL_NAMES.map((name) => [name, () => ({ handled: name })])) as unknown as CallHandlers;
  const setup = (held: boolean, reply: InboxReply | null = { done: true }) => {
    const claimed: string[] = [];
    const forwarded: string[] = [];
    const claims: ChatClaims = {
      claim(id) {
        if (held) throw new UserFacingError('busy', 'This chat is being written by waypoint mcp, pid 7.');
        claimed.push(id);
      },
      forward(id) {
        if (!held) return null;
        forwarded.push(id);
        return Promise.resolve(reply);
      },
    };
    return { wrapped: claimingHandlers(handlers, claims) as unknown as Record<CallName, (input: unknown) => unknown>, claimed, forwarded };
  };

  it('a call that changes a chat claims it first; reads and app-wide calls do not', () => {
    const { wrapped, claimed } = setup(false);
    for (const name of ['sendMessage', 'renameSession', 'deleteSession', 'answerEscalation', 'undoPlan', 'retryRun', 'chooseWorkspace'] as const) {
      expect(wrapped[name]({ sessionId: name })).toEqual({ handled: name });
    }
    for (const name of ['getSession', 'getTranscriptPage', 'getPlan', 'exportPlan', 'previewUndoPlan', 'findInChat', 'exportChat', 'previewRerun', 'getChatWriter'] as const) wrapped[name]({ sessionId: 'read' });
    // "Take over" decides for itself who writes the chat: a claim first would be refused by the very lock it takes.
    wrapped.takeOverChat({ sessionId: 'taken', token: 't' });
    for (const name of ['listSessions', 'getSettings', 'newSession'] as const) wrapped[name]({});
    expect(claimed).toEqual(['sendMessage', 'renameSession', 'deleteSession', 'answerEscalation', 'undoPlan', 'retryRun', 'chooseWorkspace']);
  });

  it('while another process writes the chat, a change is refused with its reason and Stop goes to that process', async () => {
    const { wrapped, forwarded } = setup(true);
    expect(() => wrapped.sendMessage({ sessionId: 'c1', text: 'hi' })).toThrow(/being written by waypoint mcp, pid 7/);
    expect(wrapped.getSession({ sessionId: 'c1' })).toEqual({ handled: 'getSession' });
    // Finding in a chat another process writes is a read: it is answered, not refused.
    expect(wrapped.findInChat({ sessionId: 'c1', query: 'x' })).toEqual({ handled: 'findInChat' });
    // So is paging back through it (a page of a chat another process writes).
    expect(wrapped.getTranscriptPage({ sessionId: 'c1', beforeItemId: 'i9' })).toEqual({ handled: 'getTranscriptPage' });
    // Exporting it and previewing a rerun only read it.
    expect(wrapped.exportChat({ sessionId: 'c1' })).toEqual({ handled: 'exportChat' });
    expect(wrapped.previewRerun({ sessionId: 'c1', itemId: 'u1' })).toEqual({ handled: 'previewRerun' });
    expect(await wrapped.stop({ sessionId: 'c1' })).toEqual({ stopped: true });
    expect(forwarded).toEqual(['c1']);
  });

  it('Stop answers what happened over there: stopped only when the writer says it stopped something', async () => {
    const nothing = setup(true, { done: false, reason: 'Nothing was running in this chat.' });
    expect(await nothing.wrapped.stop({ sessionId: 'c1' })).toEqual({ stopped: false, reason: 'Nothing was running in this chat.' });
    const silent = setup(true, null);
    expect(await silent.wrapped.stop({ sessionId: 'c1' })).toEqual({ stopped: false, reason: expect.stringMatching(/did not answer, so nothing was stopped/) });
  });
});
