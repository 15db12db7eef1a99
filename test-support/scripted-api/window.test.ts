import Anthropic, { BadRequestError, NotFoundError } from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModel } from './models-page';
import { startScriptedServer, type ScriptedServer } from './server';
import { countRequestTokens, countText } from './token-count';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const small: ScriptedModel = { id: 'claude-small-1-20250101', display_name: 'Claude Small 1', max_input_tokens: 2_000, max_tokens: 512 };

async function start(models?: ScriptedModel[]) {
  server = await startScriptedServer({ scenario: { name: 'w', turns: [{ kind: 'text', text: 'The one scripted answer.' }] }, ...(models ? { models } : {}) });
  return new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0, timeout: 5_000 });
}

const ask = (text: string, max_tokens = 100, model = small.id) => ({ model, max_tokens, messages: [{ role: 'user' as const, content: text }] });

async function refusal(promise: Promise<unknown>): Promise<BadRequestError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BadRequestError);
  return error as BadRequestError;
}

describe('the scripted Models API', () => {
  it("lists each model's context window (max_input_tokens) and output cap (max_tokens), as the real API does", async () => {
    const client = await start();
    const page = await client.models.list();
    expect(page.data.length).toBeGreaterThan(1);
    for (const model of page.data) {
      expect(model).toMatchObject({ type: 'model', id: expect.any(String), display_name: expect.any(String), created_at: expect.any(String) });
      expect(model.max_input_tokens).toBe(200_000);
      expect(model.max_tokens).toBeGreaterThanOrEqual(32_000);
    }
  });

  it('retrieves one model by id or by its alias, and answers 404 for an unknown one', async () => {
    const client = await start([small]);
    expect(await client.models.retrieve('claude-small-1')).toMatchObject({ id: small.id, max_input_tokens: 2_000, max_tokens: 512 });
    await expect(client.models.retrieve('claude-nothing-9')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("the scripted Messages API holds requests to the model's limits", () => {
  it('refuses a prompt longer than the window with the real 400 and message, and does not use up a scripted turn', async () => {
    const client = await start([small]);
    const text = 'word '.repeat(3_000);
    const error = await refusal(client.messages.create(ask(text)));
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toMatch(/^400 \{"type":"error","error":\{"type":"invalid_request_error","message":"prompt is too long: \d+ tokens > 2000 maximum"\}/);
    const tokens = Number(/prompt is too long: (\d+) tokens/.exec(error.message)![1]);
    expect(tokens).toBe(countRequestTokens(ask(text)));
    // The refused request cost no turn: the next one gets the scripted answer.
    const ok = await client.messages.create(ask('short'));
    expect(ok.content[0]).toMatchObject({ text: 'The one scripted answer.' });
  });

  it('refuses a prompt that leaves no room in the window for max_tokens', async () => {
    const client = await start([small]);
    const text = 'word '.repeat(1_000);
    const input = countRequestTokens(ask(text, 500));
    expect(input).toBeLessThan(2_000);
    expect(input + 500).toBeGreaterThan(2_000);
    const error = await refusal(client.messages.create(ask(text, 500)));
    expect(error.message).toContain(`input length and \`max_tokens\` exceed context limit: ${input} + 500 > 2000, decrease input length or \`max_tokens\` and try again`);
  });

  it("refuses max_tokens above the model's output cap, in the real words", async () => {
    const client = await start([small]);
    const error = await refusal(client.messages.create(ask('hi', 513)));
    expect(error.message).toContain(`max_tokens: 513 > 512, which is the maximum allowed number of output tokens for ${small.id}`);
  });

  it('reports as usage the count it enforces, and counts tokens (count_tokens) the same way, past the window too', async () => {
    const client = await start([small]);
    const message = await client.messages.create(ask('How long is this prompt?'));
    expect(message.usage.input_tokens).toBe(countRequestTokens(ask('How long is this prompt?')));
    const counted = await client.messages.countTokens({ model: small.id, messages: [{ role: 'user', content: 'How long is this prompt?' }] });
    expect(counted.input_tokens).toBe(message.usage.input_tokens);
    const huge = await client.messages.countTokens({ model: small.id, messages: [{ role: 'user', content: 'word '.repeat(5_000) }] });
    expect(huge.input_tokens).toBeGreaterThan(2_000);
    expect(server!.countRequests).toHaveLength(2);
    expect(server!.requests).toHaveLength(1);
  });

  it('count_tokens validates like the Messages API and takes no max_tokens', async () => {
    const client = await start([small]);
    await expect(client.messages.countTokens({ model: small.id, messages: [] })).rejects.toBeInstanceOf(BadRequestError);
    const body = { model: small.id, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    const response = await fetch(`${server!.url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('max_tokens: Extra inputs are not permitted');
  });
});

describe('the token count is no more lenient than the real tokenizer', () => {
  it('counts at least a token per four ASCII characters (English runs ~4 a token, code fewer) and one per other character', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.string({ unit: 'grapheme', maxLength: 100 }), (ascii, any) => {
        expect(countText(ascii)).toBeGreaterThanOrEqual(Math.ceil(ascii.length / 4));
        const others = [...any].filter((c) => c.codePointAt(0)! >= 128).length;
        expect(countText(any)).toBeGreaterThanOrEqual(others);
      }),
    );
    // Prose the real tokenizer counts at ~10 tokens; digits and punctuation one each.
    expect(countText('The quick brown fox jumps over the lazy dog.')).toBeGreaterThanOrEqual(10);
    expect(countText('2025-10-15')).toBeGreaterThanOrEqual(10);
    expect(countText('日本語のテキスト')).toBeGreaterThanOrEqual(8);
  });

  it('adds the tool-use system prompt when tools are offered, and a fixed cost per image', () => {
    const plain = countRequestTokens({ messages: [{ role: 'user', content: 'hi' }] });
    const withTool = countRequestTokens({ messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 't', description: 'd', input_schema: { type: 'object' } }] });
    expect(withTool - plain).toBeGreaterThan(346);
    const image = countRequestTokens({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] }] });
    expect(image).toBeGreaterThanOrEqual(1_600);
  });
});
