// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionResult } from '../store/types';
import { Composer } from './Composer';

afterEach(cleanup);

function setup(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const sent: string[] = [];
  const onSend = props.onSend ?? (async (text: string): Promise<ActionResult> => (sent.push(text), { ok: true }));
  const onStop = vi.fn();
  const utils = render(<Composer working={false} error={null} onSend={onSend} onStop={onStop} onEdit={() => {}} {...props} />);
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  return { ...utils, sent, onStop, box };
}

describe('Composer', () => {
  it('disables Send while empty and sends on Enter, clearing the box', async () => {
    const { box, sent } = setup();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box, { target: { value: 'Hello Claude' } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(sent).toEqual(['Hello Claude']));
    await waitFor(() => expect(box.value).toBe(''));
  });

  it('does not send on Shift+Enter (the newline is the textarea default)', async () => {
    const { box, sent } = setup();
    fireEvent.change(box, { target: { value: 'line one' } });
    const notPrevented = fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(notPrevented).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([]);
    expect(box.value).toBe('line one');
  });

  it('shows Stop only while Claude works, and Stop calls onStop', () => {
    const { rerender, onStop } = setup();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    rerender(<Composer working error={null} onSend={async () => ({ ok: true })} onStop={onStop} onEdit={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
    // The box stays usable while Claude works.
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('keeps the typed text when sending fails, and shows the error as an alert', async () => {
    const onSend = async (): Promise<ActionResult> => ({ ok: false, message: 'Claude is still working.' });
    const { box, rerender } = setup({ onSend });
    fireEvent.change(box, { target: { value: 'Important text' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(box.value).toBe('Important text');
    rerender(<Composer working={false} error="Claude is still working." onSend={onSend} onStop={() => {}} onEdit={() => {}} />);
    expect(screen.getByRole('alert').textContent).toBe('Claude is still working.');
    expect(box.value).toBe('Important text');
  });
});
