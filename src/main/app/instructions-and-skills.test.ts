import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';

// Project instructions and skills (issue 28): the whole app through its call router and a
// scripted Claude. The system prompt holds the workspace's AGENTS.md and the skill list (names
// and descriptions only), load_skill and read_skill_file answer from the skill's folder, an
// AGENTS.md edited on disk applies from the next request, and a skill turned off in Settings is
// gone from the next request (neither listed nor offered).

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

interface SentRequest {
  system: Array<{ text: string }> | string;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: unknown }>;
}
const systemOf = (r: SentRequest) => (typeof r.system === 'string' ? r.system : r.system.map((b) => b.text).join('\n'));
const toolNames = (r: SentRequest) => (r.tools ?? []).map((t) => t.name);

async function send(id: string, text: string): Promise<SentRequest[]> {
  const from = app.api.requests.length;
  const fromEvent = app.events.length;
  await app.call('sendMessage', { sessionId: id, text });
  await app.idle(id, fromEvent);
  return app.api.requests.slice(from).map((r) => r.body as SentRequest);
}

/** The tool_result Claude got for its call, from the request that carried it. */
function toolResult(request: SentRequest): string {
  const last = request.messages[request.messages.length - 1]!;
  const block = (last.content as Array<{ type: string; content?: unknown }>).find((b) => b.type === 'tool_result')!;
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
}

describe('instructions and skills in requests', () => {
  it('system prompt, load_skill, read_skill_file, an edited AGENTS.md and a skill turned off, request by request', async () => {
    app = await startTestApp(
      {
        name: 'skills',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'load_skill', input: { name: 'pdf-forms' } }] },
          { kind: 'tool_use', calls: [{ name: 'read_skill_file', input: { name: 'pdf-forms', path: 'reference.md' } }] },
          { kind: 'tool_use', calls: [{ name: 'read_skill_file', input: { name: 'pdf-forms', path: '../../../AGENTS.md' } }] },
          { kind: 'text', text: 'Filled.' },
        ],
        onExhausted: 'echo',
      },
      { settings: { instructionsForEveryChat: 'Sign every answer with a star.' } },
    );
    const ws = app.workspace;
    await writeFile(join(ws, 'AGENTS.md'), 'Use tabs, never spaces.\n@docs/style.md\n');
    await mkdir(join(ws, 'docs'));
    await writeFile(join(ws, 'docs/style.md'), 'Name files in kebab-case.');
    await mkdir(join(ws, '.claude/skills/pdf-forms'), { recursive: true });
    await writeFile(join(ws, '.claude/skills/pdf-forms/SKILL.md'), '---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nSKILL BODY: open reference.md first.\n');
    await writeFile(join(ws, '.claude/skills/pdf-forms/reference.md'), 'REFERENCE TEXT');
    await mkdir(join(ws, '.agents/skills/bad'), { recursive: true });
    await writeFile(join(ws, '.agents/skills/bad/SKILL.md'), 'no front matter');

    const { id } = await app.call('newSession', {});
    const first = await send(id, 'Fill the form');
    expect(first).toHaveLength(4);
    const system = systemOf(first[0]!);
    expect(system).toContain('## Instructions for every chat (Settings)\n\nSign every answer with a star.');
    expect(system).toContain('## AGENTS.md\n\nUse tabs, never spaces.\nName files in kebab-case.');
    expect(system).toContain('- pdf-forms: Fill in PDF forms.');
    // Names and descriptions only: the body costs tokens when loaded.
    expect(system).not.toContain('SKILL BODY');
    expect(system).not.toContain('bad');
    expect(toolNames(first[0]!)).toEqual(expect.arrayContaining(['load_skill', 'read_skill_file']));
    expect(toolResult(first[1]!)).toBe("SKILL BODY: open reference.md first.\n\nThe skill's other files (read one with read_skill_file {\"name\": \"pdf-forms\", \"path\": …}):\n- reference.md");
    expect(toolResult(first[2]!)).toBe('REFERENCE TEXT');
    expect(toolResult(first[3]!)).toContain(`leads out of the skill's folder`);
    // In the cached prefix: the system block that holds them carries the breakpoint, and the
    // prefix stays the same across the run's requests.
    const blocks = first[0]!.system as Array<{ text: string; cache_control?: unknown }>;
    expect(blocks.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(blocks.at(-1)!.text).toContain('Use tabs, never spaces.');
    expect(new Set(first.map((r) => JSON.stringify([r.system, r.tools]))).size).toBe(1);

    // An edit on disk applies from the next message.
    await writeFile(join(ws, 'AGENTS.md'), 'Use spaces now.\n');
    const [second] = await send(id, 'And again');
    expect(systemOf(second!)).toContain('## AGENTS.md\n\nUse spaces now.');
    expect(systemOf(second!)).not.toContain('Use tabs');

    // The "Instructions" button's list and Settings "Skills".
    expect(await app.call('getInstructions', { sessionId: id })).toEqual({
      sources: [{ name: 'Instructions for every chat (Settings)', chars: 30 }, { name: 'AGENTS.md', chars: 16 }],
      notes: [],
    });
    expect(await app.call('listSkills', { sessionId: id })).toEqual({
      skills: [{ name: 'pdf-forms', description: 'Fill in PDF forms.', where: '.claude/skills/pdf-forms', on: true }],
      broken: [{ where: '.agents/skills/bad', problem: expect.stringContaining('SKILL.md has no front matter') }],
    });

    // Turned off: neither listed nor offered from the next request.
    await app.call('setSettings', { patch: { skillsTurnedOff: ['pdf-forms'] } });
    const [third] = await send(id, 'Once more');
    expect(systemOf(third!)).not.toContain('pdf-forms');
    expect(toolNames(third!)).not.toContain('load_skill');
    expect((await app.call('listSkills', { sessionId: id })).skills[0]!.on).toBe(false);
  });
});
