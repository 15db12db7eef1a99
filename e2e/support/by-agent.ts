import type { ScriptedTurn } from '../../test-support/scripted-api/scenario';

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };

/** Who a request is from: its first user message (the chat's message, or a sub-agent's task). */
export function firstText(raw: Record<string, unknown>): string {
  const first = (raw as unknown as Body).messages[0]!.content;
  return typeof first === 'string' ? first : (first.find((b) => b.type === 'text')?.text ?? '');
}

/** Replies by who asks: each agent (by the start of its first user message) gets its own turns in order. */
export function byAgent(scripts: Record<string, ScriptedTurn[]>) {
  const used = new Map<string, number>();
  return (raw: Record<string, unknown>): ScriptedTurn => {
    const who = firstText(raw);
    const key = Object.keys(scripts).find((k) => who.startsWith(k));
    if (!key) return { kind: 'text', text: `nobody scripted for ${who}` };
    const at = used.get(key) ?? 0;
    used.set(key, at + 1);
    return scripts[key]![at] ?? { kind: 'text', text: `${key} has nothing more to say` };
  };
}
