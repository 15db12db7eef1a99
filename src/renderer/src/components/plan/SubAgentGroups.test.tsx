// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubAgent } from '../../../../shared/subagents';
import { plan, step } from '../../test-support/fixtures';
import { createWaypointStore } from '../../store/create-store';
import { applyEvent } from '../../store/apply-event';
import { StoreProvider } from '../../store/store-context';
import { MemoryBackend } from '../../test-support/memory-backend';
import { InlineTaskPlan } from './InlineTaskPlan';

afterEach(cleanup);

const parentPlan = plan([step(1, 'Read the code', 'completed'), step(2, 'Split the work', 'in_progress'), step(3, 'Merge', 'pending')]);
const childPlan = plan([step(1, 'Find callers', 'completed'), step(2, 'List them', 'in_progress')]);

function agent(id: string, title: string, extra: Partial<SubAgent> = {}): SubAgent {
  return { id, parentToolUseId: `toolu_${id}`, title, depth: 1, stepId: 2, status: 'working', plan: null, ...extra };
}

/** A sub-agent's approval as the chat asks it (the tests name the sub-agent). */
const approval = {
  id: 'r1',
  sessionId: 's1',
  toolUseId: 'toolu_poke',
  toolName: 'run_command',
  kind: 'command' as const,
  summary: 'Run make in ./',
  dryRun: 'make',
  scope: null,
  createdAt: '2026-11-27T10:00:00.000Z',
};

function setUp(agents: SubAgent[]) {
  const backend = new MemoryBackend();
  const store = createWaypointStore(backend);
  store.setState({ currentSessionId: 's1' });
  for (const subagent of agents) applyEvent(store.getState(), { type: 'subagent_updated', sessionId: 's1', subagent });
  const view = (p: typeof parentPlan | null) => (
    <StoreProvider store={store}>
      <InlineTaskPlan plan={p} />
    </StoreProvider>
  );
  return { backend, store, view };
}

describe('Sub-agents in the "Task plan" region', () => {
  it('nests each sub-agent under the step in progress when it started: status, N/M steps, its steps with data-status, Stop', () => {
    const { view } = setUp([agent('a1', 'Find the callers', { plan: childPlan }), agent('a2', 'Write docs', { status: 'done' })]);
    render(view(parentPlan));
    const region = screen.getByRole('region', { name: 'Task plan' });
    const stepTwo = within(region).getAllByRole('listitem').find((li) => li.textContent?.startsWith('2.') || li.querySelector('.plan-step-title')?.textContent === 'Split the work')!;
    const group = within(stepTwo).getByRole('group', { name: 'Sub-agent: Find the callers' });
    expect(group.textContent).toContain('Working');
    expect(group.textContent).toContain('1/2 steps');
    expect(within(group).getAllByRole('listitem').map((li) => [li.textContent, li.getAttribute('data-status')])).toEqual([
      ['Find callers', 'completed'],
      ['List them', 'in_progress'],
    ]);
    expect(within(group).getByRole('button', { name: 'Stop sub-agent' })).toBeTruthy();
    const done = within(stepTwo).getByRole('group', { name: 'Sub-agent: Write docs' });
    expect(done.textContent).toContain('Done');
    // A sub-agent that is not working has nothing to stop.
    expect(within(done).queryByRole('button', { name: 'Stop sub-agent' })).toBeNull();
  });

  it('shows sub-agents in the region while the chat has no plan, a sub-agent of a sub-agent inside its parent', () => {
    const { view } = setUp([agent('a1', 'Research', { stepId: null, status: 'interrupted' }), agent('a2', 'Dig deeper', { stepId: null, parentAgentId: 'a1', depth: 2, status: 'stopped' })]);
    render(view(null));
    const region = screen.getByRole('region', { name: 'Task plan' });
    const outer = within(region).getByRole('group', { name: 'Sub-agent: Research' });
    expect(outer.textContent).toContain('Interrupted');
    const inner = within(outer).getByRole('group', { name: 'Sub-agent: Dig deeper' });
    expect(inner.textContent).toContain('Stopped');
  });

  it('says "Needs you" for a sub-agent whose question the chat is asking (at any depth), and "Working" again once it is answered', () => {
    const { store, view } = setUp([agent('a1', 'Research', { stepId: null }), agent('a2', 'Dig deeper', { stepId: null, parentAgentId: 'a1', depth: 2 })]);
    const request = { ...approval, agent: { id: 'a2', title: 'Dig deeper', depth: 2 } };
    applyEvent(store.getState(), { type: 'approval_requested', sessionId: 's1', request });
    // The chat's run goes on meanwhile (its other sub-agents work): the question still waits.
    applyEvent(store.getState(), { type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'tools' } });
    render(view(null));
    const outer = screen.getByRole('group', { name: 'Sub-agent: Research' });
    const inner = within(outer).getByRole('group', { name: 'Sub-agent: Dig deeper' });
    expect(inner.querySelector('.subagent-status')?.textContent).toBe('Needs you');
    // The one above it waits on it: it is working (its own question would say otherwise).
    expect(outer.querySelector('.subagent-status')?.textContent).toBe('Working');
    act(() => applyEvent(store.getState(), { type: 'approval_resolved', sessionId: 's1', requestId: 'r1', decision: 'approved' }));
    expect(inner.querySelector('.subagent-status')?.textContent).toBe('Working');
  });

  it('says "Needs you" for a sub-agent whose question waits in line behind the one the chat shows', () => {
    const { store, view } = setUp([agent('a1', 'Shown', { stepId: null, asking: true }), agent('a2', 'In line', { stepId: null, asking: true }), agent('a3', 'Busy', { stepId: null })]);
    applyEvent(store.getState(), { type: 'approval_requested', sessionId: 's1', request: { ...approval, agent: { id: 'a1', title: 'Shown', depth: 1 } } });
    render(view(null));
    const status = (title: string) => screen.getByRole('group', { name: `Sub-agent: ${title}` }).querySelector('.subagent-status')?.textContent;
    expect([status('Shown'), status('In line'), status('Busy')]).toEqual(['Needs you', 'Needs you', 'Working']);
    // Its answer runs it on: its snapshot no longer says it asks.
    act(() => applyEvent(store.getState(), { type: 'subagent_updated', sessionId: 's1', subagent: agent('a2', 'In line', { stepId: null }) }));
    expect(status('In line')).toBe('Working');
  });

  it('"Stop sub-agent" asks main to stop that one', async () => {
    const { view, backend } = setUp([agent('a1', 'Find the callers')]);
    backend.override('stopSubAgent', () => ({ stopped: true }));
    render(view(parentPlan));
    fireEvent.click(screen.getByRole('button', { name: 'Stop sub-agent' }));
    await Promise.resolve();
    expect(backend.log.filter((c) => c.name === 'stopSubAgent').map((c) => c.input)).toEqual([{ sessionId: 's1', agentId: 'a1' }]);
  });
});
