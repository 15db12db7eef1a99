import { chatRun } from '../../../../shared/chat-run';
import { isAsking } from '../../store/chat-asking';
import type { WaypointState } from '../../store/types';
import { INBOX_PROMPTS } from './inbox-prompts';

/** A chat waiting for a person, as the "Needs you" dialog lists it. */
export interface WaitingChat {
  id: string;
  title: string;
  /** What is asked, in words: the approval, the stuck step, Claude's question, the plan to approve. */
  asked: string;
  /** The kinds of INBOX_PROMPTS the store holds a pending request of (empty: not known yet, main is asked). */
  prompts: string[];
}

/** What the list is made of: a streamed frame changes none of these (only `transcripts`), so it reuses the last list. */
const INPUTS: ReadonlyArray<keyof WaypointState> = [
  'sessions',
  'runStates',
  'approvals',
  'escalations',
  'questions',
  'plans',
  ...Object.values(INBOX_PROMPTS).flatMap((kind) => kind.reads),
];

function compute(state: WaypointState): WaitingChat[] {
  return state.sessions
    .filter((s) => chatRun(s, state.runStates[s.id], isAsking(state, s.id)) === 'needs-you')
    .map((s) => {
      const asked = Object.entries(INBOX_PROMPTS).flatMap(([name, kind]) => {
        const text = kind.asked(state, s.id);
        return text === null ? [] : [{ name, text }];
      });
      return { id: s.id, title: s.title, asked: asked[0]?.text ?? 'Waiting for your answer', prompts: asked.map((a) => a.name) };
    });
}

const sameChat = (a: WaitingChat, b: WaitingChat) => a.id === b.id && a.title === b.title && a.asked === b.asked && a.prompts.join() === b.prompts.join();

let last: { inputs: unknown[]; chats: WaitingChat[] } | null = null;

/**
 * The chats waiting for a person, in list order (shared/chat-run.ts says which). Memoised on the
 * store fields it reads, and the same array while its content is the same: the header and the
 * dialog select it on every store change, including each streamed frame of every chat.
 */
export function waitingChats(state: WaypointState): WaitingChat[] {
  const inputs = INPUTS.map((field) => state[field]);
  if (last && inputs.every((input, i) => input === last!.inputs[i])) return last.chats;
  const chats = compute(state);
  const kept = last && last.chats.length === chats.length && chats.every((chat, i) => sameChat(chat, last!.chats[i]!)) ? last.chats : chats;
  last = { inputs, chats: kept };
  return kept;
}

/** How many chats wait for a person: the header button's number. */
export function waitingCount(state: WaypointState): number {
  return waitingChats(state).length;
}
