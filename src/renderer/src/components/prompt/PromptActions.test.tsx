// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptActions } from './PromptActions';

afterEach(cleanup);

describe('PromptActions', () => {
  it('submits the form with the primary answer, runs the others on click, in order', () => {
    const done: string[] = [];
    render(
      <form onSubmit={(event) => (event.preventDefault(), done.push('submit'))}>
        <PromptActions className="row" submit="Send guidance" busy={false} actions={[{ label: 'Skip step', onClick: () => done.push('skip') }, { label: 'Abort plan', danger: true, onClick: () => done.push('abort') }]} />
      </form>,
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Send guidance', 'Skip step', 'Abort plan']);
    fireEvent.click(screen.getByRole('button', { name: 'Send guidance' }));
    fireEvent.click(screen.getByRole('button', { name: 'Skip step' }));
    fireEvent.click(screen.getByRole('button', { name: 'Abort plan' }));
    expect(done).toEqual(['submit', 'skip', 'abort']);
    expect(screen.getByRole('button', { name: 'Abort plan' }).className).toContain('btn--danger');
  });

  it('while an answer is on its way, every answer is disabled', () => {
    render(<PromptActions className="row" submit="Extend budget" busy small actions={[{ label: 'End plan', onClick: () => {} }]} />);
    const buttons = screen.getAllByRole('button') as HTMLButtonElement[];
    expect(buttons.map((b) => b.disabled)).toEqual([true, true]);
    expect(buttons.every((b) => b.className.includes('btn--small'))).toBe(true);
  });
});
