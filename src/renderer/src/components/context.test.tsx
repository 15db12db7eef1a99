// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaypointCallError } from '../../../shared/contract';
import type { CompactionItem, TranscriptItem } from '../../../shared/transcript';
import { MemoryBackend } from '../test-support/memory-backend';
import { mountApp, unmountApps } from '../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

const T = '2025-01-01T00:00:00.000Z';
const marker: CompactionItem = {
  id: 'k1',
  kind: 'compaction',
  createdAt: T,
  summary: 'The user asked about **topic 1** and topic 2.',
  trigger: 'auto',
  upTo: 4,
  tokensBefore: 182_000,
  tokensAfter: 41_000,
  costUsd: 0.03,
};
const transcript: TranscriptItem[] = [
  { id: 'u1', kind: 'user', text: 'First question', createdAt: T },
  { id: 'a1', kind: 'assistant', text: 'First answer', status: 'done', createdAt: T },
  { id: 'u2', kind: 'user', text: 'Second question', createdAt: T },
  { id: 'a2', kind: 'assistant', text: 'Second answer', status: 'done', createdAt: T },
  marker,
  { id: 'u3', kind: 'user', text: 'Third question', createdAt: T },
];

function chatWithContext(backend: MemoryBackend, tokens: number, window = 200_000) {
  backend.addChat('s1', 'Long chat', { transcript });
  const chat = backend.chats.get('s1')!;
  chat.summary = { ...chat.summary, context: { tokens, window } };
}

describe('the "Compacted" marker', () => {
  it('is a button with aria-expanded that expands to the summary; the turns above it stay on screen', async () => {
    const backend = new MemoryBackend();
    chatWithContext(backend, 41_000);
    mountApp(backend);
    const log = await screen.findByRole('log', { name: 'Conversation' });
    const toggle = await within(log).findByRole('button', { name: /Compacted/ });
    expect(toggle.textContent).toContain('Compacted 4 older messages into a summary');
    expect(toggle.textContent).toContain('182k → 41k tokens');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const region = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(region.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(region.hidden).toBe(false);
    expect(region.textContent).toContain('the latest turn before this marker and everything after it go in full');
    expect(region.textContent).toContain('The user asked about topic 1 and topic 2.');
    expect(within(region).getByText('topic 1').tagName).toBe('STRONG');
    for (const text of ['First question', 'Second answer', 'Third question']) expect(within(log).getByText(text)).toBeTruthy();
  });
});

describe('the context meter and "Compact now"', () => {
  it("shows how full the model's window is, and compacts at a click", async () => {
    const backend = new MemoryBackend();
    chatWithContext(backend, 150_000);
    backend.override('compactSession', () => ({ started: true }));
    mountApp(backend);
    const meter = await screen.findByRole('meter', { name: 'Context window' });
    expect(meter.getAttribute('aria-valuenow')).toBe('75');
    expect(meter.getAttribute('aria-valuetext')).toBe('75% full: 150,000 of 200,000 tokens');
    expect(screen.getByText('Context 75% of 200k')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Compact now' }));
    await waitFor(() => expect(backend.log.some((c) => c.name === 'compactSession')).toBe(true));
    expect(backend.log.find((c) => c.name === 'compactSession')!.input).toEqual({ sessionId: 's1' });
  });

  it('is disabled while Claude works, and says so while it compacts', async () => {
    const backend = new MemoryBackend();
    chatWithContext(backend, 10_000);
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Compact now' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'compacting' } });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getByText('Compacting the chat…')).toBeTruthy();
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  });

  it("shows main's refusal where the composer shows errors", async () => {
    const backend = new MemoryBackend();
    chatWithContext(backend, 10_000);
    backend.override('compactSession', () => {
      throw new WaypointCallError('invalid_input', 'Nothing to compact yet: only the latest turn is sent in full, and it always is.');
    });
    mountApp(backend);
    fireEvent.click(await screen.findByRole('button', { name: 'Compact now' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Nothing to compact yet');
  });

  it('is not shown before Claude was first asked in the chat', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'New');
    mountApp(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('meter')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Compact now' })).toBeNull();
  });
});

describe('Settings "Max model turns"', () => {
  it('is a labelled number field with its limits, validated, and saved', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    mountApp(backend);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    const turns = within(dialog).getByLabelText('Max model turns') as HTMLInputElement;
    expect(turns.value).toBe('50');
    expect([turns.min, turns.max]).toEqual(['1', '500']);
    expect(document.getElementById(turns.getAttribute('aria-describedby')!)!.textContent).toContain('From 1 to 500.');
    fireEvent.change(turns, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe("Max model turns can't be less than 1: enter a number from 1 to 500.");
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);
    fireEvent.change(turns, { target: { value: '120' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.view.settings.maxModelTurns).toBe(120);
  });
});
