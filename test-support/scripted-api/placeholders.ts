/**
 * Scripted tool inputs can't know values the app makes up at run time (the WBS dialect's
 * `sessionId`). A `{{name}}` placeholder in a tool input is filled from the newest JSON
 * tool_result in the request that has a `name` field — just as Claude would read it.
 */

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);

export function fillPlaceholders<T>(input: T, messages: unknown): T {
  const json = JSON.stringify(input);
  if (!HAS_PLACEHOLDER.test(json)) return input;
  const filled = json.replace(PLACEHOLDER, (whole, name: string) => {
    const value = latestResultField(messages, name);
    return value === undefined ? whole : JSON.stringify(String(value)).slice(1, -1);
  });
  return JSON.parse(filled) as T;
}

function latestResultField(messages: unknown, name: string): unknown {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = (messages[i] as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (let j = content.length - 1; j >= 0; j--) {
      const block = content[j] as { type?: string; content?: unknown };
      if (block.type !== 'tool_result') continue;
      for (const text of resultTexts(block.content)) {
        try {
          const parsed = JSON.parse(text) as Record<string, unknown>;
          if (parsed && typeof parsed === 'object' && name in parsed) return parsed[name];
        } catch {
          // Not JSON: keep looking.
        }
      }
    }
  }
  return undefined;
}

function resultTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((c) => (c && typeof c === 'object' && (c as { type?: string }).type === 'text' ? [String((c as { text?: unknown }).text)] : []));
}
