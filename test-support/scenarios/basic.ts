import type { Scenario } from '../scripted-api/scenario';

/**
 * Basic scenarios: plain replies and every API fault, for tests, e2e fixtures and the demo.
 * Transient faults (429, 529, 5xx, mid-stream error, drop, stall) are retried by the loop, so a
 * single one is ridden out; a persistent one needs more turns than the retry budget.
 */

export const echo: Scenario = {
  name: 'echo',
  description: 'Every message is answered with "You said: <message>".',
  turns: [],
  onExhausted: 'echo',
};

const LONG_MARKDOWN = [
  '# Reading a file line by line',
  '',
  'Here are two ways to do it, with **streams** and with `readline`.',
  '',
  '## With readline',
  '',
  '```ts',
  "import { createInterface } from 'node:readline';",
  "import { createReadStream } from 'node:fs';",
  '',
  'export async function countLines(path: string): Promise<number> {',
  '  let count = 0;',
  '  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });',
  '  for await (const _line of lines) count++;',
  '  return count;',
  '}',
  '```',
  '',
  '## In the shell',
  '',
  '```bash',
  'wc -l src/**/*.ts | sort -n | tail -5',
  '```',
  '',
  '| approach | memory | speed |',
  '| --- | --- | --- |',
  '| readline | constant | fast |',
  '| readFile + split | whole file | fastest for small files |',
  '',
  '1. Prefer `readline` for large files.',
  '2. Use `readFile` when the file is small.',
  '',
  '> Tip: pass `crlfDelay: Infinity` so Windows line endings count once.',
].join('\n');

export const longMarkdown: Scenario = {
  name: 'long-markdown',
  description: 'A long markdown reply with headings, code blocks, a table and a list.',
  turns: [{ kind: 'text', text: LONG_MARKDOWN, chunkChars: 12, delayMs: 4 }],
};

function faultThenEcho(name: string, fault: Extract<Scenario['turns'][number], { kind: 'fault' }>): Scenario {
  return { name, description: `The first request fails with ${fault.fault}; later ones echo.`, turns: [fault] };
}

export const faultUnauthorized = faultThenEcho('fault-unauthorized', { kind: 'fault', fault: 'unauthorized' });
export const faultBadRequest = faultThenEcho('fault-bad-request', { kind: 'fault', fault: 'bad_request' });
export const faultRateLimit: Scenario = {
  name: 'fault-rate-limit',
  description: 'Three 429s in a row (retry-after 1 s), which the loop rides out within its budget, then echo.',
  turns: [
    { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 1 },
    { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 1 },
    { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 1 },
  ],
};
export const faultOverloaded: Scenario = {
  name: 'fault-overloaded',
  description: 'Three 529s in a row, which the loop rides out with backoff, then echo.',
  turns: [
    { kind: 'fault', fault: 'overloaded' },
    { kind: 'fault', fault: 'overloaded' },
    { kind: 'fault', fault: 'overloaded' },
  ],
};
/** One more 529 than the loop's default budget (5 retries): it gives up and offers "Retry now". */
export const faultOverloadedExhausted: Scenario = {
  name: 'fault-overloaded-exhausted',
  description: 'Six 529s in a row (more than the default 5 retries), then echo: "Retry now" then succeeds.',
  turns: Array.from({ length: 6 }, () => ({ kind: 'fault' as const, fault: 'overloaded' as const })),
};
export const faultMidstream = faultThenEcho('fault-midstream', {
  kind: 'fault',
  fault: 'midstream_error',
  partialText: 'Let me think about that. The answer starts with',
});
export const faultDrop = faultThenEcho('fault-drop', { kind: 'fault', fault: 'drop', partialText: 'Half of an answer' });
export const faultStall = faultThenEcho('fault-stall', { kind: 'fault', fault: 'stall', partialText: 'Thinking out loud' });

export const basicScenarios: Scenario[] = [
  echo,
  longMarkdown,
  faultUnauthorized,
  faultBadRequest,
  faultRateLimit,
  faultOverloaded,
  faultOverloadedExhausted,
  faultMidstream,
  faultDrop,
  faultStall,
];
