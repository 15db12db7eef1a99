import type { CallInput, CallName, CallOutput } from '../../shared/contract';
import { UserFacingError } from '../common/errors';
import type { InboxReply, InboxRequest } from '../store/chat-inbox';
import type { CallHandlers, ClientId } from './call-router';

/** What the claims need of persistence (sessions/session-persistence.ts). */
export interface ChatClaims {
  /** Throws a UserFacingError ('busy') while another live process writes the chat. */
  claim(sessionId: string): void;
  /**
   * Hands a request to the process that writes the chat: null when none other does; else its
   * answer, or null in the promise when it gave none in time.
   */
  forward(sessionId: string, request: InboxRequest): Promise<InboxReply | null> | null;
}

/**
 * Calls that name a chat but only read it. Every other call naming a chat changes it. Exporting a
 * chat reads its log, and previewRerun only computes what a rerun would drop: both work on a chat
 * another process writes. The "Instructions" list and Settings' skills only read the workspace's files.
 */
const READS: ReadonlySet<CallName> = new Set<CallName>(['getSession', 'getPendingPrompts', 'getTranscriptPage', 'getPlan', 'exportPlan', 'previewUndoPlan', 'findInChat', 'exportChat', 'previewRerun', 'getChatWriter', 'setChatInView', 'getInstructions', 'listSkills', 'getChanges', 'getFileDiff']);

/** Calls that decide for themselves who writes the chat (the user's "Take over"). */
const OWN_CLAIM: ReadonlySet<CallName> = new Set<CallName>(['takeOverChat']);

/**
 * One writer per chat log (docs/architecture.md): a call that changes a chat first makes this
 * process its writer, and is refused with the reason while another process (a headless run, an
 * MCP server) writes it. New calls are covered by default: a call naming a chat is a change unless
 * listed in READS. Stop, plan edits and answers to the question the chat awaits reach across:
 * they go to the process that writes the chat.
 */
export function claimingHandlers(handlers: CallHandlers, claims: ChatClaims): CallHandlers {
  const wrapped = { ...handlers } as Record<CallName, (input: unknown, client?: ClientId) => unknown>;
  for (const name of Object.keys(handlers) as CallName[]) {
    if (READS.has(name) || OWN_CLAIM.has(name)) continue;
    const handler = handlers[name] as (input: unknown, client?: ClientId) => unknown;
    wrapped[name] = (input: unknown, client?: ClientId) => {
      const sessionId = sessionOf(input);
      if (sessionId !== null) {
        // A run is stopped where it runs: here (this process holds the chat then) or over there,
        // and the answer says what really happened there.
        if (name === 'stop') {
          const answer = claims.forward(sessionId, { kind: 'stop' });
          return answer ? answer.then(stopAnswer) : handler(input, client);
        }
        // A plan edit goes to the writer too; the change comes back as plan_updated from its log.
        if (name === 'editPlan') {
          const { planId, version, edit } = input as CallInput<'editPlan'>;
          const sent = claims.forward(sessionId, { kind: 'plan_edit', planId, version, edit });
          if (sent) {
            // Nobody waits on it: a refusal is said in the chat by the writer.
            void sent.catch(() => undefined);
            return { version };
          }
        }
        // An answer is recorded, and the run goes on, where the chat is written (one answer path).
        const prompt = ANSWERS[name];
        if (prompt) {
          const { requestId, ...rest } = input as { requestId: string; decision?: unknown; answer?: unknown };
          const answer = prompt === 'approval' ? rest.decision : rest.answer;
          const sent = claims.forward(sessionId, { kind: 'answer', prompt, requestId, answer });
          if (sent) return sent.then(answerReply);
        }
        // A plan proposal and "Retry now" are answers too: the writer runs on from them.
        if (name === 'reviewPlan') {
          const { planId, version, decision } = input as CallInput<'reviewPlan'>;
          const sent = claims.forward(sessionId, { kind: 'plan_review', planId, version, decision });
          if (sent) return sent.then((reply) => ({ itemId: answered(reply).itemId ?? '' }));
        }
        if (name === 'retryRun') {
          const sent = claims.forward(sessionId, { kind: 'retry_run' });
          if (sent) return sent.then((reply) => ({ started: answered(reply).done }));
        }
        claims.claim(sessionId);
      }
      return handler(input, client);
    };
  }
  return wrapped as unknown as CallHandlers;
}

/** The answer calls, by the kind of question they answer. */
const ANSWERS: Partial<Record<CallName, 'approval' | 'escalation' | 'question' | 'budget'>> = {
  answerApproval: 'approval',
  answerEscalation: 'escalation',
  answerQuestion: 'question',
  answerBudget: 'budget',
};

/** The writer's reply to a forwarded answer; its refusal, or its silence, is an error in words. */
function answered(reply: InboxReply | null): InboxReply {
  if (!reply) throw new UserFacingError('busy', 'The process that writes this chat did not answer, so your answer was not taken. It may no longer be running: if so, take the chat over.');
  if (!reply.done && reply.reason) throw new UserFacingError('invalid_input', reply.reason);
  return reply;
}

function answerReply(reply: InboxReply | null): { accepted: boolean } {
  return { accepted: answered(reply).done };
}

function stopAnswer(reply: InboxReply | null): CallOutput<'stop'> {
  if (!reply) {
    return {
      stopped: false,
      reason: 'The process that writes this chat did not answer, so nothing was stopped. It may no longer be running: if so, take the chat over.',
    };
  }
  return reply.done ? { stopped: true } : { stopped: false, reason: reply.reason ?? 'It did not stop.' };
}

function sessionOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || !('sessionId' in input)) return null;
  const id = (input as { sessionId: unknown }).sessionId;
  return typeof id === 'string' ? id : null;
}
