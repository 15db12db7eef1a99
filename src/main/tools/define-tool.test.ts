import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import type { EventOf } from '../../shared/contract';
import type { ToolCallItem } from '../../shared/transcript';
import { closeAll, messagesOf, startChat } from '../../../test-support/main/chat-test-setup';
import { callTool, defineTool } from './define-tool';
import { ok } from './tool';

afterEach(() => closeAll());

/**
 * A tool whose schema counts its parses (a zod transform runs once per parse) and turns the
 * input into a value no raw input can be (a Date and an upper-cased path), and whose every hook
 * records what it was handed.
 */
function countingTool() {
  let parses = 0;
  const seen: Array<{ hook: string; input: unknown }> = [];
  const see = (hook: string, input: unknown) => seen.push({ hook, input });
  const Input = z
    .object({ path: z.string().min(1), when: z.string() })
    .strict()
    .transform((v) => {
      parses++;
      return { path: v.path.toUpperCase(), when: new Date(v.when) };
    });
  const tool = defineTool({
    name: 'stamp_file',
    description: 'Stamps a file.',
    input: Input,
    group: 'workspace',
    label: 'Stamp a file',
    summarize: (v) => (see('summarize', v), `Stamp ${v.path}`),
    describeDryRun: (v) => (see('describeDryRun', v), `Would stamp ${v.path} at ${v.when.toISOString()}`),
    needsApproval: (v) => (see('needsApproval', v), true),
    protectedChange: (v) => (see('protectedChange', v), null),
    ruleSubject: (v) => (see('ruleSubject', v), { kind: 'path', path: v.path }),
    precheck: async (v) => (see('precheck', v), null),
    execute: async (v) => (see('execute', v), ok(`stamped ${v.path} ${v.when.getUTCFullYear()}`)),
  });
  return { tool, seen, parses: () => parses };
}

const call = (input: unknown): Scenario => ({
  name: 'stamp',
  turns: [{ kind: 'tool_use', text: 'Stamping.', calls: [{ name: 'stamp_file', id: 'toolu_stamp', input }] }, { kind: 'text', text: 'Done.' }],
});

describe('defineTool', () => {
  it('parses a call once, in the loop, and hands every hook the parsed value', async () => {
    const { tool, seen, parses } = countingTool();
    const chat = await startChat(call({ path: 'notes.txt', when: '2031-05-06T00:00:00Z' }), { tools: [tool] });
    const asked = chat.recorder.waitFor((e) => e.type === 'approval_requested') as Promise<EventOf<'approval_requested'>>;
    chat.service.sendMessage(chat.session.id, 'go');
    const { request } = await asked;
    expect(request).toMatchObject({ summary: 'Stamp NOTES.TXT', dryRun: 'Would stamp NOTES.TXT at 2031-05-06T00:00:00.000Z' });
    chat.service.answerApproval(chat.session.id, request.id, 'approve');
    await chat.recorder.idle(chat.session.id);

    // Once per run: the run that asked ended at the approval (nothing of it waits in memory), and
    // the run after the answer reads the call back from the chat's history and parses it once.
    expect(parses()).toBe(2);
    // summarize runs twice (the card, then the approval request): the parse still once in that run.
    expect([...new Set(seen.map((s) => s.hook))].sort()).toEqual(['describeDryRun', 'execute', 'needsApproval', 'precheck', 'protectedChange', 'ruleSubject', 'summarize'].sort());
    for (const { hook, input } of seen) {
      expect(input, hook).toEqual({ path: 'NOTES.TXT', when: new Date('2031-05-06T00:00:00Z') });
    }
    // One parsed value per run, the very same object, went to every hook of that run.
    const ran = seen.findIndex((s) => s.hook === 'execute');
    const rerunFrom = seen.findIndex((s, i) => i > 0 && s.input !== seen[0]!.input);
    expect(rerunFrom).toBeGreaterThan(0);
    expect(new Set(seen.slice(0, rerunFrom).map((s) => s.input)).size).toBe(1);
    expect(new Set(seen.slice(rerunFrom).map((s) => s.input)).size).toBe(1);
    expect(ran).toBeGreaterThanOrEqual(rerunFrom);
    const [result] = messagesOf(chat.server, 1)[2]!.content as { content: string }[];
    expect(result!.content).toBe('stamped NOTES.TXT 2031');
  });

  it('refuses bad input as one tool error worded by the one formatter, before any hook runs', async () => {
    const { tool, seen, parses } = countingTool();
    const chat = await startChat(call({ path: '', when: 7, extra: true }), { tools: [tool] });
    chat.service.sendMessage(chat.session.id, 'go');
    await chat.recorder.idle(chat.session.id);

    expect(seen).toEqual([]);
    expect(parses()).toBe(0); // the transform runs only on input the object schema accepted
    expect(chat.recorder.ofType('approval_requested')).toEqual([]);
    const [result] = messagesOf(chat.server, 1)[2]!.content as { content: string; is_error?: boolean }[];
    expect(result).toMatchObject({ is_error: true });
    expect(result!.content).toMatch(/^Invalid input for stamp_file: /);
    expect(result!.content).toContain('path: Too small');
    expect(result!.content).toContain('when: expected string, received number');
    const card = chat.chats.getSession(chat.session.id).transcript.find((i): i is ToolCallItem => i.kind === 'tool_call');
    // The card names the call by its label: no hook could summarize input that did not parse.
    expect(card).toMatchObject({ summary: 'Stamp a file', status: 'error', errorKind: 'invalid_parameter' });
  });

  it('outside the loop, callTool parses once and runs; a throwing execute becomes an error outcome', async () => {
    const { tool, seen, parses } = countingTool();
    const ctx = { sessionId: 's', signal: new AbortController().signal, settings: {} as never };
    expect(await callTool(tool, { path: 'a', when: '2030-01-01T00:00:00Z' }, ctx)).toEqual({ ok: true, content: 'stamped A 2030' });
    expect(parses()).toBe(1);
    expect(seen.map((s) => s.hook)).toEqual(['execute']);
    const throwing = defineTool({
      name: 'boom',
      description: 'Throws.',
      input: z.object({}),
      group: 'workspace',
      summarize: () => 'boom',
      describeDryRun: () => 'boom',
      needsApproval: () => false,
      execute: () => {
        throw new Error('kaput');
      },
    });
    expect(await callTool(throwing, undefined, ctx)).toEqual({ ok: false, error: { kind: 'unknown', message: 'Tool "boom" failed unexpectedly: kaput' } });
  });

  it('offers the JSON Schema derived from the zod schema, or the one passed through (MCP)', () => {
    const derived = defineTool({ name: 't', description: 'd', input: z.object({ a: z.string().describe('An a') }).strict(), group: 'workspace', summarize: () => '', describeDryRun: () => '', needsApproval: () => false, execute: () => ok('') });
    expect(derived.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string', description: 'An a' } }, required: ['a'], additionalProperties: false });
    const server = { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] };
    const passed = defineTool({ name: 'm', description: 'd', input: z.record(z.string(), z.unknown()), inputSchema: server, group: 'mcp', summarize: () => '', describeDryRun: () => '', needsApproval: () => true, execute: () => ok('') });
    expect(passed.inputSchema).toBe(server);
    expect(passed.parse('not an object').ok).toBe(false);
  });
});
