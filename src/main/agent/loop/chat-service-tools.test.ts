import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, messagesOf, startChat as setup, testTool } from '../../../../test-support/main/chat-test-setup';
import { fail, ok } from '../../tools/tool';

afterEach(closeAll);

describe('ChatService tools', () => {
  it('runs a tool_use and sends the matching tool_result in the next request', async () => {
    const seen: unknown[] = [];
    const lookup = testTool('lookup', async (input) => {
      seen.push(input);
      return ok('42 results');
    });
    const { service, chats, recorder, session, server } = await setup(
      {
        name: 't',
        turns: [
          { kind: 'tool_use', text: 'Let me look.', calls: [{ name: 'lookup', input: { q: 'answers' }, id: 'toolu_A' }] },
          { kind: 'text', text: 'Found 42.' },
        ],
      },
      { tools: [lookup] },
    );
    service.sendMessage(session.id, 'look it up');
    await recorder.idle(session.id);

    expect(seen).toEqual([{ q: 'answers' }]);
    const second = messagesOf(server, 1);
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_A', content: '42 results' }]);
    const transcript = chats.getSession(session.id).transcript;
    expect(transcript.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool_call', 'assistant']);
    expect(transcript[2]).toMatchObject({ toolUseId: 'toolu_A', name: 'lookup', status: 'done', result: '42 results', summary: 'lookup {"q":"answers"}', input: { q: 'answers' } });
    expect((transcript[2] as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(0);
    expect(recorder.ofType('transcript_item').filter((e) => e.item.kind === 'tool_call').map((e) => (e.item as { status: string }).status)).toEqual(['running', 'done']);
    expect(transcript[3]).toMatchObject({ text: 'Found 42.', status: 'done' });
  });

  it('answers unknown, failing and throwing tools with is_error results, one per tool_use', async () => {
    const failing = testTool('failing', async () => fail('not_found', 'No such file: a.txt'));
    const throwing = testTool('throwing', async () => {
      throw new Error('boom');
    });
    const { service, chats, recorder, session, server } = await setup(
      {
        name: 't',
        turns: [
          {
            kind: 'tool_use',
            calls: [
              { name: 'nope', input: {}, id: 'toolu_1' },
              { name: 'failing', input: {}, id: 'toolu_2' },
              { name: 'throwing', input: {}, id: 'toolu_3' },
            ],
          },
          { kind: 'text', text: 'ok' },
        ],
      },
      { tools: [failing, throwing] },
    );
    service.sendMessage(session.id, 'go');
    await recorder.idle(session.id);
    const results = messagesOf(server, 1)[2]!.content as { tool_use_id: string; content: string; is_error: boolean }[];
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([['toolu_1', true], ['toolu_2', true], ['toolu_3', true]]);
    expect(results[0]!.content).toContain('Unknown tool "nope"');
    expect(results[0]!.content).toContain('make_plan, finish_step, ask_user, failing, throwing');
    expect(results[1]!.content).toBe('No such file: a.txt');
    expect(results[2]!.content).toContain('boom');
    const cards = chats.getSession(session.id).transcript.filter((i) => i.kind === 'tool_call');
    // Issue 23: a call the app refuses (here an unknown tool) is a card too, with the refusal.
    expect(cards.map((c) => [c.name, c.status, c.errorKind])).toEqual([
      ['nope', 'error', 'invalid_parameter'],
      ['failing', 'error', 'not_found'],
      ['throwing', 'error', 'unknown'],
    ]);
    expect(cards[0]!.result).toContain('Unknown tool "nope"');
  });

  it('tells Claude and the user that a file tool needs a workspace when the chat has none', async () => {
    const { service, chats, recorder, session, server } = await setup({
      name: 'no-workspace',
      turns: [{ kind: 'tool_use', calls: [{ name: 'edit_file', input: { path: 'a.txt', old_text: 'a', new_text: 'b' }, id: 'toolu_e' }] }, { kind: 'text', text: 'ok' }],
    });
    service.sendMessage(session.id, 'edit a.txt');
    await recorder.idle(session.id);
    const result = (messagesOf(server, 1)[2]!.content as { content: string; is_error: boolean }[])[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('this chat has no workspace folder');
    const card = chats.getSession(session.id).transcript.find((i) => i.kind === 'tool_call');
    expect(card).toMatchObject({ name: 'edit_file', status: 'error', result: expect.stringContaining('Workspace button') });
  });

  it('shows planning tools as plan_change and plan_completion items, not tool cards', async () => {
    const { service, chats, recorder, session, plans } = await setup({
      name: 'p',
      turns: [
        { kind: 'tool_use', calls: [{ name: 'make_plan', input: { steps: ['one', 'two'] } }] },
        { kind: 'tool_use', calls: [{ name: 'finish_step', input: { id: 1 } }, { name: 'finish_step', input: { id: 2 } }] },
        { kind: 'text', text: 'All done.' },
      ],
    });
    service.sendMessage(session.id, 'plan it');
    await recorder.idle(session.id);
    const transcript = chats.getSession(session.id).transcript;
    expect(transcript.map((i) => i.kind)).toEqual(['user', 'plan_change', 'plan_change', 'plan_completion', 'assistant']);
    expect(transcript[1]).toMatchObject({ text: 'Created plan with 2 steps', version: 1 });
    expect(transcript[3]).toMatchObject({ goal: 'goal', completion: { status: 'success' }, counts: { completed: 2, total: 2 } });
    expect(chats.getSession(session.id).plan).toEqual(plans.getPlan(session.id));
    expect(chats.listSessions()[0]!.planProgress).toEqual({ completed: 2, total: 2, status: 'completed' });
  });

  it('stop during a tool that ignores its signal ends the run at once and keeps the history valid', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const stuck = testTool('stuck', () => {
      started();
      return new Promise(() => {}); // never settles
    });
    const { service, chats, recorder, session, server } = await setup(
      { name: 't', turns: [{ kind: 'tool_use', calls: [{ name: 'stuck', input: {}, id: 'toolu_S' }] }] },
      { tools: [stuck] },
    );
    service.sendMessage(session.id, 'go');
    await running;
    service.stop(session.id);
    await recorder.idle(session.id, 0, 500);
    expect(chats.getSession(session.id).transcript.find((i) => i.kind === 'tool_call')).toMatchObject({ status: 'error' });

    const mark = recorder.events.length;
    service.sendMessage(session.id, 'next');
    await recorder.idle(session.id, mark);
    const history = messagesOf(server, 1);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const last = history[2]!.content as { type: string; tool_use_id?: string; is_error?: boolean; text?: string }[];
    expect(last[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_S', is_error: true });
    expect(last[1]).toEqual({ type: 'text', text: 'next' });
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ text: 'You said: next' });
  });
});
