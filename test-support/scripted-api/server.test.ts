import Anthropic, {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from './scenario';
import { startScriptedServer, type ScriptedServer } from './server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(scenario: Scenario, requireApiKey?: string) {
  server = await startScriptedServer({ scenario, requireApiKey });
  return new Anthropic({ apiKey: 'sk-ant-test-key', baseURL: server.url, maxRetries: 0, timeout: 5_000 });
}

const ask = (text = 'hi') => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: text }],
});

describe('scripted Messages API server with the real SDK', () => {
  it('streams text in several deltas that the SDK assembles into the final message', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'text', text: 'Hello there, streaming world!', chunkChars: 5, delayMs: 1 }] });
    const deltas: string[] = [];
    const stream = client.messages.stream(ask()).on('text', (d) => deltas.push(d));
    const message = await stream.finalMessage();
    expect(deltas.length).toBe(6);
    expect(deltas.join('')).toBe('Hello there, streaming world!');
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello there, streaming world!' })]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(server!.requests).toHaveLength(1);
    expect((server!.requests[0]!.body as { stream: boolean }).stream).toBe(true);
  });

  it('streams tool_use input as several input_json_delta pieces the SDK reassembles', async () => {
    const input = { path: 'src/app.ts', range: { from: 1, to: 80 }, note: 'a "quoted" value' };
    const client = await start({
      name: 't',
      turns: [{ kind: 'tool_use', text: 'Reading it.', calls: [{ name: 'read_file', input, id: 'toolu_fixed' }], chunkChars: 10, delayMs: 0 }],
    });
    const pieces: string[] = [];
    const stream = client.messages.stream(ask()).on('inputJson', (p) => pieces.push(p));
    const message = await stream.finalMessage();
    expect(pieces.filter(Boolean).length).toBeGreaterThan(2);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_fixed', name: 'read_file', input });
  });

  it('answers a JSON Message without stream, and echoes once the turns run out', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'text', text: 'First.' }] });
    const first = await client.messages.create(ask());
    expect(first.content[0]).toMatchObject({ type: 'text', text: 'First.' });
    const second = await client.messages.create(ask('what now?'));
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'You said: what now?' });
  });

  it('answers 500 when the turns run out and onExhausted is error', async () => {
    const client = await start({ name: 't', turns: [], onExhausted: 'error' });
    await expect(client.messages.create(ask())).rejects.toBeInstanceOf(InternalServerError);
  });

  it.each([
    ['unauthorized', AuthenticationError, 401, 'authentication_error'],
    ['bad_request', BadRequestError, 400, 'invalid_request_error'],
    ['rate_limit', RateLimitError, 429, 'rate_limit_error'],
    ['overloaded', InternalServerError, 529, 'overloaded_error'],
    ['server_error', InternalServerError, 500, 'api_error'],
  ] as const)('fault %s surfaces as the SDK error of production', async (fault, ErrorClass, status, type) => {
    const client = await start({ name: 't', turns: [{ kind: 'fault', fault, retryAfterSeconds: 7 }] });
    const error = await client.messages.stream(ask()).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as APIError).status).toBe(status);
    expect((error as APIError).type).toBe(type);
    if (fault === 'rate_limit') expect((error as APIError).headers?.get('retry-after')).toBe('7');
  });

  it('sends retry-after-ms on 429/529/500 when the turn asks for it', async () => {
    const client = await start({
      name: 't',
      turns: [
        { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 2, retryAfterMs: 1500 },
        { kind: 'fault', fault: 'overloaded', retryAfterMs: 250 },
        { kind: 'fault', fault: 'bad_request', retryAfterMs: 250 },
      ],
    });
    const headersOf = async () => ((await client.messages.stream(ask()).finalMessage().catch((e: unknown) => e)) as APIError).headers;
    const limited = await headersOf();
    expect([limited?.get('retry-after'), limited?.get('retry-after-ms')]).toEqual(['2', '1500']);
    expect((await headersOf())?.get('retry-after-ms')).toBe('250');
    expect((await headersOf())?.get('retry-after-ms')).toBeNull(); // a 400 is not worth retrying
  });

  it('the SDK retries a 429 after retry-after and then succeeds', async () => {
    server = await startScriptedServer({
      scenario: { name: 't', turns: [{ kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 0.05 }, { kind: 'text', text: 'ok' }] },
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 1 });
    const message = await client.messages.create(ask());
    expect(message.content[0]).toMatchObject({ text: 'ok' });
    expect(server.requests).toHaveLength(2);
  });

  it('a mid-stream error event surfaces as an overloaded APIError after the partial text', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'fault', fault: 'midstream_error', partialText: 'Partial words' }] });
    let text = '';
    const error = await client.messages.stream(ask()).on('text', (d) => (text += d)).finalMessage().catch((e: unknown) => e);
    expect(text).toBe('Partial words');
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).type).toBe('overloaded_error');
  });

  it('a dropped connection fails the stream after the partial text', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'fault', fault: 'drop', partialText: 'Half' }] });
    let text = '';
    const error = await client.messages.stream(ask()).on('text', (d) => (text += d)).finalMessage().catch((e: unknown) => e);
    expect(text).toBe('Half');
    expect(error).toBeInstanceOf(Error);
  });

  it('a stalled stream stays open until the client aborts', async () => {
    const client = await start({ name: 't', turns: [{ kind: 'fault', fault: 'stall', partialText: 'Wait' }] });
    let text = '';
    const stream = client.messages.stream(ask()).on('text', (d) => (text += d));
    const outcome = stream.finalMessage().then(() => 'finished', () => 'failed');
    const early = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still open'), 300))]);
    expect(early).toBe('still open');
    expect(text).toBe('Wait');
    stream.abort();
    expect(await outcome).toBe('failed');
  });

  it('requireApiKey answers 401 for a wrong key and accepts the right one', async () => {
    const wrong = await start({ name: 't', turns: [] }, 'right-key');
    await expect(wrong.messages.create(ask())).rejects.toBeInstanceOf(AuthenticationError);
    const right = new Anthropic({ apiKey: 'right-key', baseURL: server!.url, maxRetries: 0 });
    await expect(right.messages.create(ask('x'))).resolves.toMatchObject({ content: [{ text: 'You said: x' }] });
  });

  it('rejects an invalid history with 400 as the real API does', async () => {
    const client = await start({ name: 't', turns: [] });
    const bad = {
      ...ask(),
      messages: [
        { role: 'user' as const, content: 'read it' },
        { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'read_file', input: {} }] },
        { role: 'user' as const, content: 'never mind' },
      ],
    };
    const error = await client.messages.create(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as APIError).message).toContain('toolu_1');
  });

  it('lists models like the Models API', async () => {
    const client = await start({ name: 't', turns: [] });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('claude-sonnet-4-5-20250929');
  });

  it('setScenario replaces the script and resets the cursor', async () => {
    const client = await start({ name: 'a', turns: [{ kind: 'text', text: 'A' }] });
    server!.setScenario({ name: 'b', turns: [{ kind: 'text', text: 'B1' }, { kind: 'text', text: 'B2' }] });
    await expect(client.messages.create(ask())).resolves.toMatchObject({ content: [{ text: 'B1' }] });
  });

  it('reports a network failure as APIConnectionError once closed', async () => {
    const client = await start({ name: 't', turns: [] });
    await server!.close();
    server = undefined;
    await expect(client.messages.create(ask())).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe('scripted-api CLI', () => {
  it('prints one listening line, serves the named scenario and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test-support/scripted-api/cli.ts', '--scenario', 'echo', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const match = /^scripted-api listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(line);
    expect(match).not.toBeNull();
    const client = new Anthropic({ apiKey: 'k', baseURL: match![1], maxRetries: 0 });
    await expect(client.messages.create(ask('cli'))).resolves.toMatchObject({ content: [{ text: 'You said: cli' }] });
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
