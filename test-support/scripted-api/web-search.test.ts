import Anthropic, { BadRequestError, InternalServerError } from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario, ScriptedTurn } from './scenario';
import { startScriptedServer, type ScriptedServer } from './server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptedTurn[]) {
  const scenario: Scenario = { name: 'web search', turns, onExhausted: 'echo' };
  server = await startScriptedServer({ scenario });
  return new Anthropic({ apiKey: 'sk-ant-test-key', baseURL: server.url, maxRetries: 0, timeout: 5_000 });
}

const webSearch = (extra: Record<string, unknown> = {}) => ({ type: 'web_search_20250305', name: 'web_search', max_uses: 5, ...extra });

const ask = (tools: unknown[] = [webSearch()], messages: MessageParam[] = [{ role: 'user', content: 'What is new in Node 20?' }]) =>
  ({ model: 'claude-sonnet-5-5', max_tokens: 512, tools, messages }) as Anthropic.MessageCreateParamsNonStreaming;

const NODE_PAGE = { title: 'Node.js 20 released', url: 'https://nodejs.org/en/blog/release/v20.0.0', pageAge: 'April 18, 2023', text: 'Node.js 20 comes with a stable test runner.' };

const searchTurn: ScriptedTurn = {
  kind: 'web_search',
  text: 'Let me look that up.',
  searches: [{ query: 'Node.js 20 release notes', results: [NODE_PAGE, { title: 'Other', url: 'https://example.org/other', text: 'Something else.' }] }],
  answer: [{ text: 'Node 20 has a stable test runner.', cite: [{ search: 0, result: 0 }] }, { text: ' That is the main news.' }],
  chunkChars: 6,
  delayMs: 0,
};

/** The reply's blocks as a client sends them back (what the API returns, minus nulls it adds). */
const back = (content: ContentBlock[]) => content.map((b) => JSON.parse(JSON.stringify(b, (_k, v: unknown) => (v === null ? undefined : v))) as Record<string, unknown>);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestError);
  return (error as BadRequestError).message;
}

describe('the scripted server plays web search as the API does', () => {
  it('streams server_tool_use as input {} then input_json_delta, the result whole in its start, citations as citations_delta, and counts the search', async () => {
    const client = await start([searchTurn]);
    const events: RawMessageStreamEvent[] = [];
    const message = await client.messages.stream(ask()).on('streamEvent', (e) => events.push(e)).finalMessage();
    const starts = events.filter((e) => e.type === 'content_block_start').map((e) => e.content_block);
    expect(starts[1]).toMatchObject({ type: 'server_tool_use', name: 'web_search', input: {} });
    expect(starts[2]).toMatchObject({ type: 'web_search_tool_result', content: [{ type: 'web_search_result', url: NODE_PAGE.url, page_age: 'April 18, 2023' }, { url: 'https://example.org/other' }] });
    const deltas = events.flatMap((e) => (e.type === 'content_block_delta' ? [e.delta.type] : []));
    expect(deltas.filter((d) => d === 'input_json_delta').length).toBeGreaterThan(1);
    expect(deltas).toContain('citations_delta');
    expect(message.content.map((b) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'text', 'text']);
    expect(message.content[1]).toMatchObject({ input: { query: 'Node.js 20 release notes' } });
    expect(message.content[3]).toMatchObject({ citations: [{ type: 'web_search_result_location', url: NODE_PAGE.url, cited_text: NODE_PAGE.text, encrypted_index: expect.any(String) }] });
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
    expect(message.stop_reason).toBe('end_turn');
  });

  it.each([
    ['another version', { type: 'web_search_20990101' }, "does not match any of the expected tags"],
    ['another name', { name: 'search' }, "name: Input should be 'web_search'"],
    ['max_uses 0', { max_uses: 0 }, 'max_uses: Input should be greater than 0'],
    ['max_uses 1.5', { max_uses: 1.5 }, 'max_uses: Input should be greater than 0'],
    ['no max_uses', { max_uses: undefined }, 'max_uses: Input should be greater than 0'],
    ['an unknown field', { max_results: 3 }, 'max_results: Extra inputs are not permitted'],
    ['both domain lists', { allowed_domains: ['a.org'], blocked_domains: ['b.org'] }, 'Cannot specify both allowed_domains and blocked_domains'],
  ])('refuses a web_search definition with %s (400)', async (_what, change, words) => {
    const client = await start([]);
    expect(await refusal(client.messages.create(ask([webSearch(change)])))).toContain(words);
    expect(server!.invalid).toHaveLength(1);
  });

  it('takes a definition with one domain list and the setting-style max_uses', async () => {
    const client = await start([{ kind: 'text', text: 'ok' }]);
    await expect(client.messages.create(ask([webSearch({ allowed_domains: ['nodejs.org'], max_uses: 20 })]))).resolves.toMatchObject({ stop_reason: 'end_turn' });
  });

  it('answers searches past max_uses with max_uses_exceeded and bills only the ones that ran', async () => {
    const client = await start([{ kind: 'web_search', searches: [{ query: 'one', results: [NODE_PAGE] }, { query: 'two', results: [NODE_PAGE] }], answer: [{ text: 'Done.' }] }]);
    const message = await client.messages.create(ask([webSearch({ max_uses: 1 })]));
    const results = message.content.filter((b) => b.type === 'web_search_tool_result');
    expect(results[1]).toMatchObject({ content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } });
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('refuses to play a search the request did not offer', async () => {
    const client = await start([searchTurn]);
    await expect(client.messages.create(ask([]))).rejects.toBeInstanceOf(InternalServerError);
  });

  describe('the history a client sends back', () => {
    async function searched(): Promise<{ client: Anthropic; reply: Message; history: MessageParam[] }> {
      const client = await start([searchTurn, { kind: 'text', text: 'Anything else?' }]);
      const reply = await client.messages.create(ask());
      const history: MessageParam[] = [{ role: 'user', content: 'What is new in Node 20?' }, { role: 'assistant', content: back(reply.content) as never }, { role: 'user', content: 'Thanks.' }];
      return { client, reply, history };
    }

    it('is taken when the blocks come back exactly as they came', async () => {
      const { client, history } = await searched();
      await expect(client.messages.create(ask(undefined, history))).resolves.toMatchObject({ content: [{ text: 'Anything else?' }] });
    });

    it('is refused when a server_tool_use comes back without its web_search_tool_result', async () => {
      const { client, history } = await searched();
      const assistant = history[1]!.content as Array<{ type: string }>;
      history[1] = { role: 'assistant', content: assistant.filter((b) => b.type !== 'web_search_tool_result') as never };
      expect(await refusal(client.messages.create(ask(undefined, history)))).toContain('without a corresponding `web_search_tool_result`');
    });

    it("is refused when a result's encrypted content was changed", async () => {
      const { client, history } = await searched();
      const result = (history[1]!.content as unknown as Array<Record<string, unknown>>)[2]!;
      const pages = result.content as Array<Record<string, unknown>>;
      pages[0] = { ...pages[0], encrypted_content: Buffer.from('tampered with, and long enough to look sealed').toString('base64') };
      expect(await refusal(client.messages.create(ask(undefined, history)))).toContain('Invalid encrypted content');
    });

    it("is refused when a result's url was changed (its content no longer opens)", async () => {
      const { client, history } = await searched();
      const pages = (history[1]!.content as unknown as Array<Record<string, unknown>>)[2]!.content as Array<Record<string, unknown>>;
      pages[0] = { ...pages[0], url: 'https://elsewhere.example/' };
      expect(await refusal(client.messages.create(ask(undefined, history)))).toContain('Invalid encrypted content');
    });

    it("is refused when a citation's cited text was changed", async () => {
      const { client, history } = await searched();
      const text = (history[1]!.content as unknown as Array<Record<string, unknown>>)[3]!;
      const citations = text.citations as Array<Record<string, unknown>>;
      citations[0] = { ...citations[0], cited_text: 'Node.js 20 removes the test runner.' };
      expect(await refusal(client.messages.create(ask(undefined, history)))).toContain('Invalid encrypted index');
    });

    it('is refused when the client answers a server_tool_use with a tool_result', async () => {
      const { client, reply, history } = await searched();
      const id = reply.content.find((b) => b.type === 'server_tool_use')!.id;
      history[2] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'my own results' }] };
      expect(await refusal(client.messages.create(ask(undefined, history)))).toContain(`server tool use id ${id}`);
    });
  });

  it('plays pause_turn: the reply stops after its searches, and only a request that sends it back unchanged goes on', async () => {
    const client = await start([
      { kind: 'web_search', text: 'Searching.', searches: [{ query: 'q', results: [NODE_PAGE] }], pause: true },
      { kind: 'web_search', searches: [], answer: [{ text: 'Found it.', cite: [] }] },
    ]);
    const first: MessageParam[] = [{ role: 'user', content: 'Look it up.' }];
    const paused = await client.messages.create(ask(undefined, first));
    expect(paused.stop_reason).toBe('pause_turn');
    expect(paused.content.at(-1)?.type).toBe('web_search_tool_result');
    // Not sending the paused reply back is refused; sending it back goes on.
    expect(await refusal(client.messages.create(ask(undefined, [{ role: 'user', content: 'Look it up.' }])))).toContain('pause_turn');
    const goOn = await client.messages.create(ask(undefined, [...first, { role: 'assistant', content: back(paused.content) as never }]));
    expect(goOn).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'Found it.' }] });
  });
});
