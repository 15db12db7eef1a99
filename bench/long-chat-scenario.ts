import type { Scenario, ScriptedTurn } from '../test-support/scripted-api/scenario';

export const END_MARKER = 'End of the long chat.';

const reply = (n: number) =>
  [
    `Turn ${n}: the listing shows the project files. Here is the helper I will use next:`,
    '',
    '```typescript',
    `export function helper${n}(items: string[]): string[] {`,
    '  return items.filter((item) => item.endsWith(".ts")).sort();',
    '}',
    '```',
  ].join('\n');

/**
 * `users` user messages, each answered by `toolTurns` turns of text + a code block + a
 * list_directory call (a tool card), then a closing reply: (2·toolTurns + 2) transcript items
 * per user message.
 */
export function longChatScenario(users: number, toolTurns: number): Scenario {
  const turns: ScriptedTurn[] = [];
  for (let u = 0; u < users; u++) {
    for (let t = 0; t < toolTurns; t++) {
      turns.push({ kind: 'tool_use', text: reply(u * toolTurns + t), calls: [{ name: 'list_directory', input: { path: '.' } }], delayMs: 0, chunkChars: 100_000 });
    }
    const last = u === users - 1 ? `\n\n${END_MARKER}` : '';
    turns.push({ kind: 'text', text: `Done with request ${u}.\n\n\`\`\`bash\nnpm test -- --run part-${u}\n\`\`\`${last}`, delayMs: 0, chunkChars: 100_000 });
  }
  return { name: 'bench-long-chat', turns, onExhausted: 'echo' };
}
