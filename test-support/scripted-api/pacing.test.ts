import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { fillPlaceholders } from './placeholders';
import { startScriptedServer, type ScriptedServer } from './server';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const ask = (client: Anthropic, text: string) =>
  client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user', content: text }] });

describe('gated scenarios', () => {
  it('answers one request per release, in order', async () => {
    server = await startScriptedServer({
      scenario: { name: 'g', gated: true, turns: [{ kind: 'text', text: 'one' }, { kind: 'text', text: 'two' }] },
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    let answered = false;
    const first = ask(client, 'a').then((m) => {
      answered = true;
      return m;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(answered).toBe(false);
    await server.release();
    const reply = await first;
    expect(reply.content[0]).toMatchObject({ type: 'text', text: 'one' });
    const second = ask(client, 'b');
    await server.release();
    expect((await second).content[0]).toMatchObject({ text: 'two' });
  });

  it('close() lets held requests go instead of hanging', async () => {
    server = await startScriptedServer({ scenario: { name: 'g', gated: true, turns: [] } });
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const pending = ask(client, 'a').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    await server.close();
    server = null;
    await expect(pending).resolves.toBeDefined();
  });
});

describe('placeholders', () => {
  const messages = [
    { role: 'user', content: 'plan it' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'planning_initialize', input: {} }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: JSON.stringify({ success: true, sessionId: 'planning_1_ab"c' }) }],
    },
  ];

  it('fills {{name}} from the newest JSON tool_result that has the field', () => {
    expect(fillPlaceholders({ session_id: '{{sessionId}}', n: 1 }, messages)).toEqual({ session_id: 'planning_1_ab"c', n: 1 });
  });

  it('leaves inputs without placeholders, and unknown names, untouched', () => {
    const input = { a: 'x' };
    expect(fillPlaceholders(input, messages)).toBe(input);
    expect(fillPlaceholders({ a: '{{missing}}' }, messages)).toEqual({ a: '{{missing}}' });
  });
});
