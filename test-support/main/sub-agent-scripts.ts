/** Scripted replies for tests with sub-agents: each agent, known by its first user message, gets its own turns. */
import type { ScriptedTurn } from '../scripted-api/scenario';
import type { ScriptedServer } from '../scripted-api/server';

export type Body = {
  messages: { role: string; content: string | { type: string; text?: string; tool_use_id?: string; content?: string; is_error?: boolean }[] }[];
  tools?: { name: string }[];
};

/** Who a request is from: the text of its first user message (the chat's message, or a sub-agent's task). */
export function firstText(body: Body): string {
  const first = body.messages[0]!.content;
  return typeof first === 'string' ? first : (first.find((b) => b.type === 'text')?.text ?? '');
}

/**
 * Replies by who asks: each agent (keyed by the start of its first user message) gets its own
 * turns in order; the scenario's own turns are never used.
 */
export function byAgent(scripts: Record<string, ScriptedTurn[]>) {
  const used = new Map<string, number>();
  return (raw: Record<string, unknown>): ScriptedTurn | undefined => {
    const who = firstText(raw as unknown as Body);
    const key = Object.keys(scripts).find((k) => who.startsWith(k));
    if (!key) return { kind: 'text', text: `nobody scripted for ${who}` };
    const at = used.get(key) ?? 0;
    used.set(key, at + 1);
    return scripts[key]![at] ?? { kind: 'text', text: `${key} has nothing more to say` };
  };
}

export const requestsOf = (server: ScriptedServer, who: string): Body[] =>
  server.requests.filter((r) => firstText(r.body as Body).startsWith(who)).map((r) => r.body as Body);

export const delegate = (id: string, task: string, extra: Record<string, unknown> = {}) => ({ name: 'delegate', id, input: { task, ...extra } });

/** The tool_result of one call in a request's messages. */
export function resultOf(body: Body, toolUseId: string) {
  return body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).find((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId);
}
