import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantItem, ToolCallItem } from '../../../shared/transcript';
import { closeAll, startChat } from '../../../../test-support/main/chat-test-setup';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { isSummaryRequest, smallWindowModel, userMessage } from '../../../../test-support/main/long-chat-kit';
import { startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { lastUserText } from '../../../../test-support/scripted-api/message-builder';
import type { ScriptedSearchResult, ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import { WEB_SEARCH_USD } from '../model/pricing';

// Web search (docs/contract.md "Web search"): with Settings "Web search" on, every request offers
// the API's server tool; the reply's server_tool_use / web_search_tool_result blocks and cited
// text go back exactly as they came (the scripted server refuses changed or split ones, as the
// API does), pause_turn is continued, each search is a card, and searches are billed.
afterEach(closeAll);

type Body = MessageCreateParamsBase & { messages: Array<{ role: string; content: Array<Record<string, unknown>> | string }> };
const bodyOf = (server: ScriptedServer, i: number) => server.requests[i]!.body as Body;

const NODE: ScriptedSearchResult = { title: 'Node.js 20 is out', url: 'https://nodejs.org/en/blog/release/v20.0.0', pageAge: 'April 18, 2023', text: 'Node.js 20 ships a stable test runner.' };
const V8: ScriptedSearchResult = { title: 'V8 release notes', url: 'https://v8.dev/blog', text: 'V8 11.3 brings faster startup.' };

const searchAndAnswer: ScriptedTurn = {
  kind: 'web_search',
  text: 'Let me look that up.',
  searches: [{ query: 'Node.js 20 release notes', results: [NODE, V8] }],
  answer: [{ text: 'Node 20 has a stable test runner.', cite: [{ search: 0, result: 0 }] }, { text: ' It also has a newer V8.', cite: [{ search: 0, result: 1 }] }],
  delayMs: 0,
};

const cards = (items: readonly { kind: string }[]) => items.filter((i): i is ToolCallItem => i.kind === 'tool_call' && (i as ToolCallItem).name === 'web_search');

describe('web search in the loop', () => {
  it('offers the server tool, shows the search as a card with its results and the cited sources, and sends the blocks back exactly as received', async () => {
    const { service, chats, server, recorder, session } = await startChat(
      { name: 'search', turns: [searchAndAnswer, { kind: 'text', text: 'You are welcome.' }] },
      { settings: { webSearch: true, webSearchMaxUses: 3 } },
    );
    service.sendMessage(session.id, 'What is new in Node 20?');
    await recorder.idle(session.id);
    expect(bodyOf(server, 0).tools?.at(-1)).toMatchObject({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 });

    const transcript = chats.getSession(session.id).transcript;
    const [card] = cards(transcript);
    expect(card).toMatchObject({ status: 'done', input: { query: 'Node.js 20 release notes' } });
    expect(card!.webResults).toEqual([
      { title: NODE.title, url: NODE.url, pageAge: 'April 18, 2023' },
      { title: V8.title, url: V8.url },
    ]);
    // The card shows while the reply streams: running with its query, then done with its results.
    expect(recorder.ofType('transcript_item').filter((e) => e.item.id === card!.id).map((e) => (e.item as ToolCallItem).status)).toEqual(['running', 'done']);
    const reply = transcript.find((i): i is AssistantItem => i.kind === 'assistant')!;
    expect(reply.text).toBe('Let me look that up.Node 20 has a stable test runner. It also has a newer V8.');
    expect(reply.sources).toEqual([
      { title: NODE.title, url: NODE.url },
      { title: V8.title, url: V8.url },
    ]);

    const before = recorder.events.length;
    service.sendMessage(session.id, 'Thanks!');
    await recorder.idle(session.id, before);
    expect(server.invalid).toEqual([]);
    // The second request carries the reply's blocks as the first one's reply had them: nothing paired with a tool_result.
    const sent = bodyOf(server, 1).messages[1]!.content as Array<Record<string, unknown>>;
    expect(sent.map((b) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'text', 'text']);
    expect(sent[2]!.content).toEqual([expect.objectContaining({ url: NODE.url, encrypted_content: expect.any(String) }), expect.objectContaining({ url: V8.url })]);
    expect(sent[3]!.citations).toEqual([expect.objectContaining({ type: 'web_search_result_location', url: NODE.url, encrypted_index: expect.any(String) })]);
    expect(JSON.stringify(bodyOf(server, 1).messages)).not.toMatch(/"type":"tool_result"/);
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'You are welcome.' });
  });

  it('shows two searches of one reply as two cards, in order', async () => {
    const { service, chats, server, recorder, session } = await startChat(
      { name: 'two', turns: [{ kind: 'web_search', searches: [{ query: 'node 20', results: [NODE] }, { query: 'v8 11', results: [V8] }], answer: [{ text: 'Both found.' }], delayMs: 0 }] },
      { settings: { webSearch: true } },
    );
    service.sendMessage(session.id, 'Look up both.');
    await recorder.idle(session.id);
    expect(cards(chats.getSession(session.id).transcript).map((c) => [c.input, c.webResults?.map((r) => r.url)])).toEqual([
      [{ query: 'node 20' }, [NODE.url]],
      [{ query: 'v8 11' }, [V8.url]],
    ]);
    expect(server.invalid).toEqual([]);
  });

  it('a search past "Web searches per request" shows the error on its card in words', async () => {
    const { service, chats, recorder, session } = await startChat(
      { name: 'max', turns: [{ kind: 'web_search', searches: [{ query: 'one', results: [NODE] }, { query: 'two', results: [V8] }], answer: [{ text: 'One was enough.' }], delayMs: 0 }] },
      { settings: { webSearch: true, webSearchMaxUses: 1 } },
    );
    service.sendMessage(session.id, 'Search twice.');
    await recorder.idle(session.id);
    const [first, second] = cards(chats.getSession(session.id).transcript);
    expect(first).toMatchObject({ status: 'done' });
    expect(second).toMatchObject({ status: 'error', input: { query: 'two' } });
    expect(second!.result).toContain('"Web searches per request" limit');
  });

  it('continues a pause_turn reply by sending it back as it is, as one more model turn', async () => {
    const { service, chats, server, recorder, session } = await startChat(
      {
        name: 'pause',
        turns: [
          { kind: 'web_search', text: 'Searching.', searches: [{ query: 'node 20', results: [NODE] }], pause: true, delayMs: 0 },
          { kind: 'web_search', searches: [], answer: [{ text: 'Node 20 is out.', cite: [] }], delayMs: 0 },
        ],
      },
      { settings: { webSearch: true } },
    );
    service.sendMessage(session.id, 'Is Node 20 out?');
    await recorder.idle(session.id);
    expect(server.invalid).toEqual([]);
    expect(server.requests).toHaveLength(2);
    const second = bodyOf(server, 1).messages;
    expect(second.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Searching.' }, { type: 'server_tool_use' }, { type: 'web_search_tool_result' }] });
    expect(chats.getSession(session.id).transcript.filter((i) => i.kind === 'assistant').map((i) => (i as AssistantItem).text)).toEqual(['Searching.', 'Node 20 is out.']);
    expect(chats.getSession(session.id).session.requestCount).toBe(2);
  });

  it("counts each search into the chat's cost at $10 per 1,000", async () => {
    const { service, chats, recorder, session } = await startChat(
      { name: 'cost', turns: [{ kind: 'web_search', searches: [{ query: 'a', results: [NODE] }, { query: 'b', results: [V8] }], answer: [{ text: 'Done.' }], delayMs: 0 }] },
      { settings: { webSearch: true } },
    );
    service.sendMessage(session.id, 'Search.');
    await recorder.idle(session.id);
    const usage = chats.getSession(session.id).session.usage!;
    expect(usage.webSearches).toBe(2);
    const tokensOnly = (usage.inputTokens * 3 + usage.outputTokens * 15) / 1_000_000;
    expect(usage.costUsd).toBeCloseTo(tokensOnly + 2 * WEB_SEARCH_USD, 9);
  });

  it("a sub-agent's requests offer web search too, and its searches are the chat's cost", async () => {
    const task = 'Find the Node 20 release date.';
    const respond = (body: Record<string, unknown>): ScriptedTurn => {
      const first = (body.messages as Array<{ content: Array<{ type: string; text?: string }> }>)[0]!.content;
      const fromSubAgent = first.some((b) => b.type === 'text' && b.text?.startsWith(task));
      const asked = (body.messages as unknown[]).length;
      if (fromSubAgent) return asked === 1 ? { kind: 'web_search', searches: [{ query: 'node 20 date', results: [NODE] }], answer: [{ text: 'April 2023.' }], delayMs: 0 } : { kind: 'text', text: 'done' };
      return asked === 1 ? { kind: 'tool_use', calls: [{ name: 'delegate', input: { task } }], delayMs: 0 } : { kind: 'text', text: 'It came out in April 2023.', delayMs: 0 };
    };
    const { service, chats, server, recorder, session } = await startChat({ name: 'sub', turns: [] }, { settings: { webSearch: true, webSearchMaxUses: 2 }, server: { respond } });
    service.sendMessage(session.id, 'When did Node 20 come out? Ask a sub-agent.');
    await recorder.idle(session.id);
    expect(server.invalid).toEqual([]);
    const subAgentRequests = server.requests.map((r) => r.body as Body).filter((b) => JSON.stringify(b.messages[0]).includes(task));
    expect(subAgentRequests.length).toBeGreaterThan(0);
    for (const body of subAgentRequests) expect(body.tools?.at(-1)).toMatchObject({ type: 'web_search_20250305', max_uses: 2 });
    expect(chats.getSession(session.id).session.usage?.webSearches).toBe(1);
  });

  it('with the setting off, no request offers web_search', async () => {
    const { service, server, recorder, session } = await startChat({ name: 'off', turns: [{ kind: 'text', text: 'Hi.' }] });
    service.sendMessage(session.id, 'Hello');
    await recorder.idle(session.id);
    expect(JSON.stringify(bodyOf(server, 0).tools ?? [])).not.toContain('web_search');
  });
});

describe('web search blocks in a long chat', () => {
  let server: ScriptedServer | undefined;
  let instance: Instance | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await instance?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    instance = server = dataDir = undefined;
  });

  it('survive compaction and a restart, and every later request is taken by the strict server', { timeout: 120_000 }, async () => {
    const fast = { delayMs: 0, chunkChars: 4_000 };
    const respond = (body: Record<string, unknown>): ScriptedTurn => {
      if (isSummaryRequest(body)) return { kind: 'text', text: 'Summary: the user asked about Node releases and several topics.', ...fast };
      const asked = lastUserText(body.messages);
      if (asked.includes('search')) return { kind: 'web_search', searches: [{ query: asked.slice(0, 40), results: [NODE, V8] }], answer: [{ text: 'Found it.', cite: [{ search: 0, result: 0 }] }], ...fast };
      return { kind: 'text', text: `About that: ${asked.slice(0, 80)}`, ...fast };
    };
    server = await startScriptedServer({ scenario: { name: 'long search', turns: [] }, models: [smallWindowModel(9_000)], respond });
    dataDir = mkdtempSync(join(tmpdir(), 'waypoint-web-search-'));
    const settings = settingsSource({ webSearch: true, maxTokens: 1_024 });
    instance = await startInstance(dataDir, server.url, settings);
    const { id } = instance.chats.newSession();
    const send = async (text: string) => {
      const from = instance!.events.length;
      instance!.chat.sendMessage(id, text);
      await instance!.idle(id);
      return from;
    };
    await send('Please search for the Node 20 release.');
    for (let n = 1; n <= 24; n++) await send([1, 2, 3, 4].map(() => userMessage(n)).join(' '));
    await send('Please search again for V8 news.');
    expect(instance.chats.wholeTranscript(id).some((i) => i.kind === 'compaction')).toBe(true);

    await instance.close();
    instance = await startInstance(dataDir, server.url, settings);
    await send('One more question about topic 3.');
    expect(server.invalid).toEqual([]);
    // The last request still carries the latest search's blocks, paired, with their encrypted parts intact.
    const last = server.requests.at(-1)!.body as Body;
    const blocks = last.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    expect(blocks.filter((b) => b.type === 'server_tool_use').length).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.type === 'server_tool_use').length).toBe(blocks.filter((b) => b.type === 'web_search_tool_result').length);
    expect(instance.chats.wholeTranscript(id).filter((i) => i.kind === 'notice' && i.level === 'error')).toEqual([]);
  });
});
