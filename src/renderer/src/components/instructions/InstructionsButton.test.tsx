// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

async function openChat(backend: MemoryBackend) {
  backend.addChat('s1', 'Chat');
  mountApp(backend); // the newest chat opens
}

describe('the header\'s "Instructions"', () => {
  it('lists the files in use as main reads them, with the notes; Escape closes it and gives the focus back', async () => {
    const backend = new MemoryBackend();
    backend.instructions = {
      sources: [
        { name: 'Instructions for every chat (Settings)', chars: 12 },
        { name: 'AGENTS.md', chars: 1200 },
        { name: 'docs/style.md', chars: 40, importedBy: 'AGENTS.md', cut: true },
      ],
      notes: ['"@../x.md" in AGENTS.md was not imported: it is outside the workspace.'],
    };
    await openChat(backend);
    const button = await screen.findByRole('button', { name: 'Instructions' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Instructions' });
    expect(backend.log.filter((c) => c.name === 'getInstructions').map((c) => c.input)).toEqual([{ sessionId: 's1' }]);
    const items = within(within(dialog).getByRole('list', { name: 'Instruction files in use' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Instructions for every chat (Settings) (12 characters)',
      'AGENTS.md (1,200 characters)',
      'docs/style.md (40 characters, imported by AGENTS.md, cut: past the 40,000-character limit)',
    ]);
    expect(dialog.textContent).toContain('"@../x.md" in AGENTS.md was not imported: it is outside the workspace.');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Instructions' })).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it('says so when no instructions are in use', async () => {
    const backend = new MemoryBackend();
    await openChat(backend);
    fireEvent.click(await screen.findByRole('button', { name: 'Instructions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Instructions' });
    expect(dialog.textContent).toContain('No instructions are in use');
  });
});
