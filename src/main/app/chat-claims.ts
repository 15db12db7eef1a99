import type { CallInput, CallName } from '../../shared/contract';
import type { InboxRequest } from '../sessions/chat-inbox';
import type { CallHandlers, ClientId } from './call-router';

/** What the claims need of persistence (sessions/session-persistence.ts). */
export interface ChatClaims {
  /** Throws a UserFacingError ('busy') while another live process writes the chat. */
  claim(sessionId: string): void;
  /** Hands a request to the process that writes the chat; false when none other does. */
  forward(sessionId: string, request: InboxRequest): boolean;
}

/** Calls that name a chat but only read it. Every other call naming a chat changes it. */
const READS: ReadonlySet<CallName> = new Set<CallName>(['getSession', 'getTranscriptPage', 'getPlan', 'exportPlan', 'previewUndoPlan', 'findInChat']);

/**
 * One writer per chat log (design.md §7): a call that changes a chat first makes this process its
 * writer, and is refused with the reason while another process (a headless run, an MCP server)
 * writes it. New calls are covered by default: a call naming a chat is a change unless listed in
 * READS. Stop and plan edits reach across: they go to the process that writes the chat.
 */
export function claimingHandlers(handlers: CallHandlers, claims: ChatClaims): CallHandlers {
  const wrapped = { ...handlers } as Record<CallName, (input: unknown, client?: ClientId) => unknown>;
  for (const name of Object.keys(handlers) as CallName[]) {
    if (READS.has(name)) continue;
    const handler = handlers[name] as (input: unknown, client?: ClientId) => unknown;
    wrapped[name] = (input: unknown, client?: ClientId) => {
      const sessionId = sessionOf(input);
      if (sessionId !== null) {
        // A run is stopped where it runs: here (this process holds the chat then) or over there.
        if (name === 'stop') return claims.forward(sessionId, { kind: 'stop' }) ? { stopped: true } : handler(input, client);
        // A plan edit goes to the writer too; the change comes back as plan_updated from its log.
        if (name === 'editPlan') {
          const { planId, version, edit } = input as CallInput<'editPlan'>;
          if (claims.forward(sessionId, { kind: 'plan_edit', planId, version, edit })) return { version };
        }
        claims.claim(sessionId);
      }
      return handler(input, client);
    };
  }
  return wrapped as unknown as CallHandlers;
}

function sessionOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || !('sessionId' in input)) return null;
  const id = (input as { sessionId: unknown }).sessionId;
  return typeof id === 'string' ? id : null;
}
