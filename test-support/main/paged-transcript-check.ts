import fc from 'fast-check';
import { expect } from 'vitest';
import type { Plan } from '../../src/shared/plan';
import { planChangeItems } from '../../src/shared/plan-change';
import type { TranscriptItem } from '../../src/shared/transcript';
import { findInChat, findInPagedChat } from '../../src/main/store/search/chat-find';
import type { ChatSession } from '../../src/main/chats/chat-session';
import type { LogEntry } from '../../src/main/store/log-records';
import { searchableChat, searchChats } from '../../src/main/store/search/chat-search';

/**
 * Test support for the paged transcript (src/main/sessions/paged-items.ts): the full replay it
 * replaces, and a check that a chat answers every read as that replay does.
 */

const T = '2026-01-01T00:00:00.000Z';

// Text with what JSON escapes, what case-folds oddly (Kelvin sign, dotted I) and multi-byte characters.
export const text = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', ' ', '\n', '"', '\\', 'é', '\u212a', 'İ', 'Σ', '😀', '\u0001'), maxLength });
export const ids = fc.constantFrom('i0', 'i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7', 'i8', 'i9');

export const item: fc.Arbitrary<TranscriptItem> = fc.oneof(
  fc.record({ id: ids, kind: fc.constant('user' as const), text: text(30) }),
  fc.record({ id: ids, kind: fc.constant('assistant' as const), text: text(60), status: fc.constantFrom('streaming' as const, 'done' as const) }),
  fc.record({ id: ids, kind: fc.constant('thinking' as const), text: text(20), status: fc.constant('done' as const) }),
  fc.record({ id: ids, kind: fc.constant('notice' as const), level: fc.constant('info' as const), text: text(20) }),
  fc.record({ id: ids, kind: fc.constant('tool_call' as const), name: fc.constant('read_file'), summary: text(15), status: fc.constant('done' as const), result: text(40) }).map((call) => ({ ...call, toolUseId: `tu-${call.id}`, input: { path: 'a' } })),
).map((value) => ({ ...value, createdAt: T }) as TranscriptItem);

export function planAt(id: string, version: number, done: boolean): Plan {
  return {
    id,
    dialect: 'structured',
    goal: `goal ${id}`,
    status: done ? 'completed' : 'active',
    version,
    createdAt: T,
    updatedAt: T,
    steps: [{ id: 1, title: 'a step', status: done ? 'completed' : 'pending', dependsOn: [], notes: [], attempts: [] }],
    summary: { total: 1, completed: done ? 1 : 0, in_progress: 0, pending: done ? 0 : 1, failed: 0, skipped: 0, percent: done ? 100 : 0 },
    ...(done ? { completion: { status: 'success', summary: 'All done', issues: [] } } : {}),
  } as Plan;
}

/** What ChatSession held before paging: a Map in insertion order, folded record by record. */
export function fullReplay(entries: readonly LogEntry[], sessionId = 'c'): TranscriptItem[] {
  const items = new Map<string, TranscriptItem>();
  let plan: Plan | null = null;
  for (const entry of entries) {
    if (entry.type === 'item') items.set(entry.item.id, entry.item);
    if (entry.type === 'text') {
      const item = items.get(entry.itemId);
      if (item?.kind === 'assistant' || item?.kind === 'thinking') items.set(item.id, { ...item, text: item.text + entry.text });
    }
    if (entry.type === 'plan' && (!plan || entry.plan.id !== plan.id || entry.version > plan.version)) {
      if (entry.change) for (const item of planChangeItems(plan, { sessionId, plan: entry.plan, change: entry.change })) items.set(item.id, item);
      plan = entry.plan;
    }
    if (entry.type === 'rewind') {
      let cutting = false;
      for (const id of [...items.keys()]) {
        cutting ||= id === entry.itemId;
        if (cutting) items.delete(id);
      }
      if (entry.planDropped) plan = null;
    }
  }
  return [...items.values()];
}

// Single letters are in every line's JSON keys; 'ak' and 'ai' are not, so they test the filter.
export const QUERIES = ['a', 'ab', 'A B', 'b\na', 'é', '"', '\\', 'ak', 'ai', 'k a', 'σ', '😀', 'zz'];

/** Every read of a paged chat, against the full replay; `keep`: at most that many (and plan lines and cards) held in memory. */
export function expectSameTranscript(session: ChatSession, expected: TranscriptItem[], keep: number): void {
  expect(session.itemCount).toBe(expected.length);
  expect(session.transcript).toEqual(expected);
  for (const size of [1, 3, 7]) {
    for (let start = 0; start < expected.length; start += size) expect(session.itemsBetween(start, start + size)).toEqual(expected.slice(start, start + size));
  }
  expected.forEach((value, index) => {
    expect(session.indexOf(value.id)).toBe(index);
    expect(session.idAt(index)).toBe(value.id);
    expect(session.kindAt(index)).toBe(value.kind);
  });
  // Each item by id, in a shuffled order (what was read back into the window must not change an answer).
  for (const value of [...expected].reverse()) expect(session.item(value.id)).toEqual(value);
  for (const kind of ['user', 'assistant', 'tool_call', 'plan_change', 'plan_completion'] as const) {
    const ofKind = expected.filter((i) => i.kind === kind);
    expect(session.itemsOfKind(kind)).toEqual(ofKind);
    expect(session.countOf(kind)).toBe(ofKind.length);
  }
  for (const call of expected.filter((i) => i.kind === 'tool_call')) expect(session.toolCall(call.toolUseId)).toEqual(call);
  for (const query of QUERIES) {
    expect(findInPagedChat(session, query)).toEqual(findInChat(expected, query));
    const searchable = searchableChat(session);
    expect(searchChats([searchable], query)).toEqual(
      searchChats([{ summary: session.summary, searchCandidates: () => expected }], query),
    );
  }
  // Only the window, plan lines and cards stay in memory: the rest really is read from the log.
  const alwaysKept = expected.filter((i) => i.kind === 'plan_change' || i.kind === 'plan_completion').length;
  expect(session.residentItems).toBeLessThanOrEqual(Math.min(keep, expected.length) + alwaysKept);
}

