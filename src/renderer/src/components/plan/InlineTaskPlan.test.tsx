// @vitest-environment happy-dom
import { cleanup, fireEvent, render as renderBare, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plan, step } from '../../test-support/fixtures';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { MemoryBackend } from '../../test-support/memory-backend';
import { shareSteps } from '../../store/share-steps';
import { InlineTaskPlan } from './InlineTaskPlan';

// The panel's action buttons (Export, Undo) talk to the store, so it renders inside one.
function render(ui: ReactElement) {
  const store = createWaypointStore(new MemoryBackend());
  const wrapper = ({ children }: { children: React.ReactNode }) => <StoreProvider store={store}>{children}</StoreProvider>;
  return renderBare(ui, { wrapper });
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

const active = plan([
  step(1, 'Read the code', 'completed'),
  step(2, 'Change the parser', 'in_progress', { dependsOn: [1] }),
  step(3, 'Write tests', 'pending', { dependsOn: [1, 2], successCriteria: 'All green', attempts: [] }),
  step(4, 'Old approach', 'skipped', { reason: 'not needed' }),
  step(5, 'Deploy', 'failed'),
  step(6, 'Unit tests', 'pending', { parentId: 3 }),
]);

describe('InlineTaskPlan', () => {
  it('is hidden without a plan, without steps, or once the plan is not active', () => {
    const { rerender } = render(<InlineTaskPlan plan={null} />);
    expect(screen.queryByRole('region', { name: 'Task plan' })).toBeNull();
    rerender(<InlineTaskPlan plan={plan([])} />);
    expect(screen.queryByRole('region', { name: 'Task plan' })).toBeNull();
    rerender(<InlineTaskPlan plan={{ ...active, status: 'completed' }} />);
    expect(screen.queryByRole('region', { name: 'Task plan' })).toBeNull();
    rerender(<InlineTaskPlan plan={active} />);
    expect(screen.getByRole('region', { name: 'Task plan' })).toBeTruthy();
  });

  it('shows N/M steps, the percentage and the progressbar value inside the region', () => {
    render(<InlineTaskPlan plan={active} />);
    const region = screen.getByRole('region', { name: 'Task plan' });
    const header = within(region).getByRole('button', { expanded: true });
    expect(header.textContent).toContain('Task Plan');
    expect(header.textContent).toContain('1/6 steps');
    expect(header.textContent).toContain('17%');
    const bar = within(region).getByRole('progressbar', { name: 'Plan progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('17');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
  });

  it('lists every step with data-status, its title, and nests sub-steps under their parent', () => {
    render(<InlineTaskPlan plan={active} />);
    const region = screen.getByRole('region', { name: 'Task plan' });
    const items = within(region).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-status'))).toEqual([
      'completed',
      'in_progress',
      'pending',
      'pending',
      'skipped',
      'failed',
    ]);
    const parent = items.find((li) => li.textContent?.includes('Write tests'));
    const child = items.find((li) => li.querySelector('.plan-step-title')?.textContent === 'Unit tests');
    expect(child).toBeTruthy();
    expect(parent?.contains(child ?? null)).toBe(true);
    expect(parent?.textContent).toContain('after 1, 2');
    expect(within(region).getByText('(in progress)', { exact: false })).toBeTruthy();
  });

  it('opens a step detail with its success criteria', () => {
    render(<InlineTaskPlan plan={active} />);
    fireEvent.click(screen.getByRole('button', { name: 'Details for step 3' }));
    expect(screen.getByText('All green')).toBeTruthy();
  });

  it('numbers steps by position, keeps a dialect label, and shows the id in the detail of a step numbered otherwise', () => {
    // Claude added step 6 after step 2: it reads "3.", not a puzzling "6." between 2 and 3.
    const added = plan([
      step(1, 'Survey colours', 'completed'),
      step(2, 'Add variables', 'completed'),
      step(6, 'Theme the icons', 'in_progress', { dependsOn: [2] }),
      step(3, 'Add the toggle', 'pending', { dependsOn: [6] }),
      step(7, 'Toggle test', 'pending', { parentId: 3 }),
    ]);
    render(<InlineTaskPlan plan={added} />);
    const region = screen.getByRole('region', { name: 'Task plan' });
    const numbers = [...region.querySelectorAll('.plan-step-label')].map((n) => n.textContent);
    expect(numbers).toEqual(['1.', '2.', '3.', '4.', '4.1.']);
    expect(within(region).getByText('Add the toggle').closest('li')?.textContent).toContain('after 3');
    // Numbered as its id: no detail to open. Numbered otherwise: the detail says the id Claude uses.
    expect(within(region).queryByRole('button', { name: 'Details for step 1' })).toBeNull();
    fireEvent.click(within(region).getByRole('button', { name: 'Details for step 3' }));
    const detail = within(region).getByText('Step id').closest('dl')!;
    expect(detail.textContent).toContain('Step id6');

    cleanup();
    render(<InlineTaskPlan plan={plan([step(1, 'Design', 'pending', { label: '1.2' })], { dialect: 'wbs' })} />);
    expect(screen.getByRole('region', { name: 'Task plan' }).querySelector('.plan-step-label')?.textContent).toBe('1.2.');
  });

  it('draws status marks as SVG icons, not emoji or rare symbols', () => {
    render(<InlineTaskPlan plan={active} />);
    const region = screen.getByRole('region', { name: 'Task plan' });
    // Nothing runs here: the in-progress step shows a still mark too (it spins only while Claude works).
    expect(region.querySelectorAll('.plan-mark svg')).toHaveLength(6);
    expect(region.textContent).not.toMatch(/[✓✗○⤼▾▸]|\p{Extended_Pictographic}/u);
  });

  it('shows each newer version whole: rows kept from the last one included (numbers, "after", menus)', () => {
    const v1 = plan([step(1, 'Read', 'in_progress'), step(2, 'Change', 'pending', { dependsOn: [1] }), step(3, 'Test')], { version: 1 });
    // As the store applies it: unchanged steps keep their objects (share-steps.ts), so their rows are not rendered again.
    const v2 = shareSteps(v1, JSON.parse(JSON.stringify(plan([step(4, 'Plan', 'completed'), step(1, 'Read', 'completed'), step(2, 'Change', 'in_progress', { dependsOn: [1] }), step(3, 'Test')], { version: 2 }))) as typeof v1);
    const { rerender } = render(<InlineTaskPlan plan={v1} />);
    rerender(<InlineTaskPlan plan={v2} />);
    const rows = within(screen.getByRole('region', { name: 'Task plan' })).getAllByRole('listitem');
    expect(rows.map((li) => [li.getAttribute('data-status'), li.querySelector('.plan-step-label')?.textContent])).toEqual([
      ['completed', '1.'],
      ['completed', '2.'],
      ['in_progress', '3.'],
      ['pending', '4.'],
    ]);
    expect(rows[2]!.textContent).toContain('after 2');
    // Step 3 ("Test") is unchanged, but no step above it is pending any more: it cannot move up now.
    fireEvent.click(within(rows[3]!).getByRole('button', { name: 'Edit step' }));
    expect(screen.queryByRole('menuitem', { name: 'Move up' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Skip' })).toBeTruthy();
  });

  it('collapses the body and remembers it across mounts', () => {
    const { unmount } = render(<InlineTaskPlan plan={active} />);
    const header = screen.getByRole('button', { expanded: true });
    fireEvent.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    unmount();
    render(<InlineTaskPlan plan={active} />);
    expect(screen.getByRole('button', { expanded: false })).toBeTruthy();
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getAllByRole('listitem')).toHaveLength(6);
  });
});
