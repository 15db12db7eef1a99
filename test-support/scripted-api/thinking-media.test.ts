import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from './scenario';
import { startScriptedServer, type ScriptedServer } from './server';

// The scripted API holds clients to what the real one checks about thinking and media, with the
// SDK as the client: where it is more lenient than the real API, our tests pass and users fail.
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(scenario: Scenario) {
  server = await startScriptedServer({ scenario });
  return new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0, timeout: 10_000 });
}

const THINK = { type: 'adaptive' as const };
const loopTurns: Scenario['turns'] = [
  { kind: 'tool_use', thinking: ['Let me check the file.'], redacted: 1, calls: [{ name: 'look', input: {}, id: 'toolu_one' }] },
  { kind: 'text', text: 'Done.' },
];
const tool = { name: 'look', description: 'Look.', input_schema: { type: 'object' as const } };

async function firstTurn(client: Anthropic) {
  const first = await client.messages.stream({ model: 'claude-opus-4-6', max_tokens: 20_000, thinking: THINK, tools: [tool], messages: [{ role: 'user', content: 'go' }] }).finalMessage();
  const result: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_one', content: 'seen' }] };
  return { assistant: first.content as unknown as ContentBlockParam[], result };
}

const continueWith = (client: Anthropic, assistant: ContentBlockParam[], result: MessageParam, thinking = true) =>
  client.messages.create({
    model: 'claude-opus-4-6',
    max_tokens: 20_000,
    ...(thinking ? { thinking: THINK } : {}),
    tools: [tool],
    messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: assistant }, result],
  });

describe('thinking', () => {
  it('streams thinking (thinking_delta, signature_delta) and redacted_thinking the SDK assembles, only when asked', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'text', text: 'Four.', thinking: ['Two and two make four.'], redacted: 1, chunkChars: 5 }, { kind: 'text', text: 'x', thinking: ['unasked'] }] });
    const deltas: string[] = [];
    const signatures: string[] = [];
    const message = await client.messages
      .stream({ model: 'claude-opus-4-6', max_tokens: 2000, thinking: THINK, messages: [{ role: 'user', content: '2+2?' }] })
      .on('thinking', (d) => deltas.push(d))
      .on('signature', (s) => signatures.push(s))
      .finalMessage();
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('Two and two make four.');
    expect(signatures).toHaveLength(1);
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'text']);
    const plain = await client.messages.create({ model: 'claude-opus-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(plain.content.map((b) => b.type)).toEqual(['text']);
  });

  it('accepts a tool loop that sends the thinking blocks back exactly as received', async () => {
    const client = await start({ name: 't', turns: loopTurns });
    const { assistant, result } = await firstTurn(client);
    const reply = await continueWith(client, assistant, result);
    expect(reply.content[0]).toMatchObject({ type: 'text', text: 'Done.' });
  });

  it('refuses a tool loop that drops the thinking blocks, with the API’s message', async () => {
    const client = await start({ name: 't', turns: loopTurns });
    const { assistant, result } = await firstTurn(client);
    const dropped = assistant.filter((b) => b.type === 'tool_use');
    await expect(continueWith(client, dropped, result)).rejects.toThrow(/messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
    // Without thinking, the same history is fine (thinking off needs no thinking blocks).
    await expect(continueWith(client, dropped, result, false)).resolves.toBeTruthy();
  });

  it('refuses a tool loop whose thinking was changed, re-signed, or partly dropped', async () => {
    const client = await start({ name: 't', turns: [...loopTurns, ...loopTurns, ...loopTurns] });
    const { assistant, result } = await firstTurn(client);
    const edited = assistant.map((b) => (b.type === 'thinking' ? { ...b, thinking: `${b.thinking} (edited)` } : b));
    const error = await continueWith(client, edited, result).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(String((error as Error).message)).toContain('`thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified');
    const badSignature = assistant.map((b) => (b.type === 'thinking' ? { ...b, signature: Buffer.alloc(40, 1).toString('base64') } : b));
    await expect(continueWith(client, badSignature, result)).rejects.toThrow(/cannot be modified/);
    const noRedacted = assistant.filter((b) => b.type !== 'redacted_thinking');
    await expect(continueWith(client, noRedacted, result)).rejects.toThrow(/cannot be modified/);
  });

  it('checks the thinking parameter: budget ≥ 1024 and below max_tokens, a type the model takes', async () => {
    const client = await start({ name: 't', turns: [] });
    const ask = (extra: object) => client.messages.create({ model: 'claude-sonnet-4-5-20250929', max_tokens: 2000, messages: [{ role: 'user', content: 'hi' }], ...extra });
    await expect(ask({ thinking: { type: 'enabled', budget_tokens: 512 } })).rejects.toThrow(/greater than or equal to 1024/);
    await expect(ask({ thinking: { type: 'enabled', budget_tokens: 2000 } })).rejects.toThrow(/`max_tokens` must be greater than `thinking.budget_tokens`/);
    await expect(ask({ thinking: { type: 'adaptive' } })).rejects.toThrow(/adaptive thinking is not supported/);
    await expect(ask({ thinking: { type: 'enabled', budget_tokens: 1024 } })).resolves.toBeTruthy();
  });

  it('preserved thinking (Sonnet 5.5): thinking blocks of earlier turns are bound to their prefix; an append-only history passes, any rewrite before them is refused', async () => {
    const model = 'claude-sonnet-5-5';
    const client = await start({ name: 't', turns: Array.from({ length: 8 }, () => ({ kind: 'text' as const, text: 'ok', thinking: ['Considered.'], redacted: 1 })) });
    const system = 'You are helpful.';
    const first = await client.messages.create({ model, max_tokens: 20_000, thinking: THINK, system, tools: [tool], messages: [{ role: 'user', content: 'one' }] });
    const history: MessageParam[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: first.content as unknown as ContentBlockParam[] },
      { role: 'user', content: 'two' },
    ];
    const next = (change: Partial<{ system: unknown; tools: unknown; messages: MessageParam[] }> = {}) =>
      client.messages.create({ model, max_tokens: 20_000, thinking: THINK, system, tools: [tool], messages: history, ...(change as object) });
    // Append-only, with a cache breakpoint added (not content): accepted.
    const cached = structuredClone(history);
    (cached[0]!.content as unknown) = [{ type: 'text', text: 'one', cache_control: { type: 'ephemeral' } }];
    await expect(next({ messages: cached })).resolves.toBeTruthy();
    const bound = /messages\.1\.content\.0: Invalid `signature` in `thinking` block\. The block is bound to a different conversation/;
    await expect(next({ system: 'You are helpful. Today is Monday.' })).rejects.toThrow(bound);
    await expect(next({ tools: [tool, { ...tool, name: 'other' }] })).rejects.toThrow(bound);
    const edited = structuredClone(history);
    edited[0]!.content = 'one, edited';
    await expect(next({ messages: edited })).rejects.toThrow(bound);
    // A thinking block between others left out: the one after it no longer matches its prefix.
    const skipped = structuredClone(history);
    skipped[1]!.content = (skipped[1]!.content as ContentBlockParam[]).filter((b) => b.type !== 'thinking');
    await expect(next({ messages: skipped })).rejects.toThrow(/messages\.1\.content\.0: .*bound to a different conversation/);
    // Dropping every thinking block of a turn is allowed; a forged signature is not.
    const stripped = structuredClone(history);
    stripped[1]!.content = (stripped[1]!.content as ContentBlockParam[]).filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
    await expect(next({ messages: stripped })).resolves.toBeTruthy();
    const forged = structuredClone(history);
    (forged[1]!.content as Array<{ type: string; signature?: string }>)[0]!.signature = Buffer.alloc(72, 7).toString('base64');
    await expect(next({ messages: forged })).rejects.toThrow(/messages\.1\.content\.0: .*(cannot be modified|Invalid `signature`)/);
    // Older models keep no thinking across turns: the same rewrite passes there.
    const old = await client.messages.create({ model: 'claude-opus-4-6', max_tokens: 20_000, thinking: THINK, system: 'changed', tools: [tool], messages: edited });
    expect(old.content.at(-1)).toMatchObject({ type: 'text' });
  });

  it('refuses what thinking does not go with: a temperature other than 1, top_k, a low top_p, forced tool use', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'text', text: 'ok' }, { kind: 'text', text: 'ok' }] });
    const ask = (extra: object) => client.messages.create({ model: 'claude-opus-4-6', max_tokens: 2000, thinking: THINK, tools: [tool], messages: [{ role: 'user', content: 'hi' }], ...extra });
    await expect(ask({ temperature: 0.2 })).rejects.toThrow(/`temperature` may only be set to 1 when thinking is enabled/);
    await expect(ask({ top_k: 5 })).rejects.toThrow(/`top_k` is not supported when thinking is enabled/);
    await expect(ask({ top_p: 0.5 })).rejects.toThrow(/`top_p` must be between 0.95 and 1/);
    await expect(ask({ tool_choice: { type: 'any' } })).rejects.toThrow(/Thinking may not be enabled when tool_choice forces tool use/);
    await expect(ask({ tool_choice: { type: 'tool', name: 'look' } })).rejects.toThrow(/forces tool use/);
    // What it does go with.
    await expect(ask({ temperature: 1, tool_choice: { type: 'auto' } })).resolves.toBeTruthy();
    await expect(client.messages.create({ model: 'claude-opus-4-6', max_tokens: 100, ...({ temperature: 0.2 } as object), messages: [{ role: 'user', content: 'hi' }] })).resolves.toBeTruthy();
  });
});

const png = (width: number, height: number, noise = false) =>
  noise
    ? sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
    : sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();

const imageMessage = (data: string, mediaType = 'image/png'): MessageParam[] => [
  { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: mediaType as 'image/png', data } }, { type: 'text', text: 'What is this?' }] },
];

async function pdf(pages: number): Promise<string> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return Buffer.from(await doc.save()).toString('base64');
}

// Making and checking multi-megabyte images takes seconds on a loaded machine.
describe('images and documents', { timeout: 60_000 }, () => {
  it('accepts a valid PNG and a valid PDF', async () => {
    const client = await start({ name: 'm', turns: [] });
    const image = (await png(64, 64)).toString('base64');
    await expect(client.messages.create({ model: 'm', max_tokens: 50, messages: imageMessage(image) })).resolves.toBeTruthy();
    const doc: MessageParam[] = [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: await pdf(3) } }, { type: 'text', text: 'Sum up.' }] }];
    await expect(client.messages.create({ model: 'm', max_tokens: 50, messages: doc })).resolves.toBeTruthy();
  });

  it('refuses what the API refuses: wrong media type, not base64, corrupt, too many pixels, over 5 MB', async () => {
    const client = await start({ name: 'm', turns: [] });
    const ask = (messages: MessageParam[]) => client.messages.create({ model: 'm', max_tokens: 50, messages });
    const image = (await png(64, 64)).toString('base64');
    await expect(ask(imageMessage(image, 'image/jpeg'))).rejects.toThrow(/specified using the image\/jpeg media type, but the image appears to be a image\/png image/);
    await expect(ask(imageMessage(image, 'image/bmp'))).rejects.toThrow(/media_type: Input should be/);
    await expect(ask(imageMessage('not base64!'))).rejects.toThrow(/not valid base64/);
    const corrupt = Buffer.from(image, 'base64').subarray(0, 60).toString('base64');
    await expect(ask(imageMessage(corrupt))).rejects.toThrow(/Could not process image/);
    await expect(ask(imageMessage((await png(8001, 10)).toString('base64')))).rejects.toThrow(/exceed max allowed size: 8000 pixels/);
    const huge = (await png(1300, 1200, true)).toString('base64');
    expect(huge.length).toBeGreaterThan(5 * 1024 * 1024);
    await expect(ask(imageMessage(huge))).rejects.toThrow(/image exceeds 5 MB maximum/);
  });

  it('refuses an unfilled attachment reference, over 100 PDF pages, and more than 20 large images', async () => {
    const client = await start({ name: 'm', turns: [] });
    const ask = (content: ContentBlockParam[]) => client.messages.create({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: [...content, { type: 'text', text: 'hi' }] }] });
    await expect(ask([{ type: 'image', source: { type: 'url', url: 'waypoint-attachment:abc' } }])).rejects.toThrow(/Only HTTPS URLs/);
    const doc = (data: string): ContentBlockParam => ({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } });
    const sixty = await pdf(60);
    await expect(ask([doc(sixty), doc(sixty)])).rejects.toThrow(/A maximum of 100 PDF pages may be provided/);
    const big = (await png(2100, 20)).toString('base64');
    const small = (await png(20, 20)).toString('base64');
    const many = [big, ...Array.from({ length: 20 }, () => small)].map((data): ContentBlockParam => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }));
    await expect(ask(many)).rejects.toThrow(/many-image requests: 2000 pixels/);
  });
});
