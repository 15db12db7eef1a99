// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubAgent } from '../../../../shared/subagents';
import type { ToolCallItem } from '../../../../shared/transcript';
import { applyEvent } from '../../store/apply-event';
import { storeWrapper } from '../../test-support/store-wrapper';
import { TranscriptEntry } from './TranscriptEntry';

afterEach(cleanup);

const delegateCall: ToolCallItem = {
  id: 'tc1',
  createdAt: '2026-11-27T10:00:00.000Z',
  kind: 'tool_call',
  toolUseId: 'toolu_A',
  name: 'delegate',
  summary: 'Sub-agent: Alpha: count the notes',
  input: { task: 'Alpha: count the notes' },
  status: 'running',
};

const agent: SubAgent = {
  id: 'a1',
  parentToolUseId: 'toolu_A',
  title: 'Alpha: count the notes',
  depth: 1,
  stepId: null,
  status: 'working',
  plan: null,
};

describe('a sub-agent transcript card', () => {
  it('is one disclosure "Sub-agent: TITLE" that expands to its messages and tool calls once it ended', () => {
    const { store, wrapper } = storeWrapper();
    act(() => store.getState().setSubAgents('s1', [agent]));
    render(<TranscriptEntry item={delegateCall} />, { wrapper });
    const toggle = screen.getByRole('button', { name: 'Sub-agent: Alpha: count the notes' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByText('Working')).toBeTruthy();

    act(() =>
      store.getState().applySubAgent('s1', {
        ...agent,
        status: 'done',
        result: 'There are 12 notes.',
        transcript: [
          { kind: 'tool', text: 'List workspace root', status: 'done', result: 'notes/' },
          { kind: 'message', text: 'There are 12 notes.' },
        ],
      }),
    );
    expect(screen.getByText('Done')).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const lines = within(screen.getByRole('list', { name: 'Its messages and tool calls' })).getAllByRole('listitem');
    expect(lines.map((li) => li.textContent)).toEqual(['List workspace root — donenotes/', 'There are 12 notes.']);
    fireEvent.click(toggle);
    expect(screen.queryByRole('list', { name: 'Its messages and tool calls' })).toBeNull();
  });

  it('shows its lines while it works, as they arrive (a tool call that ends replaces its running line), and keeps them when it ends', () => {
    const { store, wrapper } = storeWrapper();
    act(() => store.getState().setSubAgents('s1', [agent]));
    render(<TranscriptEntry item={delegateCall} />, { wrapper });
    fireEvent.click(screen.getByRole('button', { name: 'Sub-agent: Alpha: count the notes' }));
    expect(screen.queryByRole('list', { name: 'Its messages and tool calls' })).toBeNull();

    act(() => store.getState().applySubAgentLine('s1', 'a1', { id: 'i1', kind: 'message', text: 'Counting.' }));
    act(() => store.getState().applySubAgentLine('s1', 'a1', { id: 'i2', kind: 'tool', text: 'List notes', status: 'running' }));
    const texts = () => within(screen.getByRole('list', { name: 'Its messages and tool calls' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(texts()).toEqual(['Counting.', 'List notes — running']);
    act(() => store.getState().applySubAgentLine('s1', 'a1', { id: 'i2', kind: 'tool', text: 'List notes', status: 'done', result: '12 files' }));
    expect(texts()).toEqual(['Counting.', 'List notes — done12 files']);
    // Its final snapshot carries no lines of its own: the ones gathered stay.
    act(() => store.getState().applySubAgent('s1', { ...agent, status: 'done', result: 'There are 12 notes.' }));
    expect(screen.getByText('Done')).toBeTruthy();
    expect(texts()).toEqual(['Counting.', 'List notes — done12 files']);
  });

  it('says "Needs you" while the chat asks its question (a question of the sub-agent, not another one\'s), then "Working" again', () => {
    const { store, wrapper } = storeWrapper();
    act(() => store.getState().setSubAgents('s1', [agent, { ...agent, id: 'a2', parentToolUseId: 'toolu_B', title: 'Beta' }]));
    render(<TranscriptEntry item={delegateCall} />, { wrapper });
    const question = (id: string, agentId: string, title: string) => ({
      id,
      sessionId: 's1',
      toolUseId: `toolu_ask_${id}`,
      question: 'Which notes?',
      options: ['All', 'Some'],
      allowText: false,
      agent: { id: agentId, title, depth: 1 },
      createdAt: '2026-11-27T10:00:00.000Z',
    });
    act(() => applyEvent(store.getState(), { type: 'question_requested', sessionId: 's1', request: question('q0', 'a2', 'Beta') }));
    expect(screen.getByText('Working')).toBeTruthy();
    act(() => applyEvent(store.getState(), { type: 'question_resolved', sessionId: 's1', requestId: 'q0', outcome: 'answered' }));
    act(() => applyEvent(store.getState(), { type: 'question_requested', sessionId: 's1', request: question('q1', 'a1', agent.title) }));
    expect(screen.getByText('Needs you')).toBeTruthy();
    expect(screen.queryByText('Working')).toBeNull();
    act(() => applyEvent(store.getState(), { type: 'question_resolved', sessionId: 's1', requestId: 'q1', outcome: 'answered' }));
    expect(screen.getByText('Working')).toBeTruthy();
  });

  it('shows its thinking (collapsed, "Thinking") and its plan\'s changes among its lines, as the chat shows its own', () => {
    const { store, wrapper } = storeWrapper();
    act(() => store.getState().setSubAgents('s1', [agent]));
    render(<TranscriptEntry item={delegateCall} />, { wrapper });
    fireEvent.click(screen.getByRole('button', { name: 'Sub-agent: Alpha: count the notes' }));
    act(() => store.getState().applySubAgentLine('s1', 'a1', { id: 't1', kind: 'thinking', text: 'Count them by folder.' }));
    act(() => store.getState().applySubAgentLine('s1', 'a1', { id: 'p1', kind: 'plan', text: 'Started step 1: Count the notes' }));
    const list = screen.getByRole('list', { name: 'Its messages and tool calls' });
    const thinking = within(list).getByRole('button', { name: 'Thinking' });
    expect(thinking.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(thinking);
    expect(within(list).getByText('Count them by folder.')).toBeTruthy();
    expect(within(list).getAllByRole('listitem').at(-1)!.textContent).toBe('Started step 1: Count the notes');
  });
});
