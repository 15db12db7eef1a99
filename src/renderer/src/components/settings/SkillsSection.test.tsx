// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

describe('Settings "Skills" and "Instructions for every chat"', () => {
  it('lists each skill with "Use skill NAME" (on by default) and the broken ones; unchecking one and typing instructions is saved with Save', async () => {
    const backend = new MemoryBackend();
    backend.skills = {
      skills: [
        { name: 'pdf-forms', description: 'Fill PDF forms.', where: '.claude/skills/pdf-forms', on: true },
        { name: 'release', description: 'Cut a release.', where: 'skills/release (data folder)', on: true },
      ],
      broken: [{ where: '.agents/skills/bad', problem: 'SKILL.md has no front matter.' }],
    };
    backend.addChat('s1', 'Chat');
    mountApp(backend);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    const skills = within(dialog).getByRole('group', { name: 'Skills' });
    const pdf = (await within(skills).findByRole('checkbox', { name: 'Use skill pdf-forms' })) as HTMLInputElement;
    expect(pdf.checked).toBe(true);
    expect((within(skills).getByRole('checkbox', { name: 'Use skill release' }) as HTMLInputElement).checked).toBe(true);
    expect(within(skills).getByRole('list', { name: 'Skills not used' }).textContent).toBe('Not used: .agents/skills/bad: SKILL.md has no front matter.');

    fireEvent.click(pdf);
    fireEvent.change(within(dialog).getByLabelText('Instructions for every chat'), { target: { value: 'Answer in French.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
    expect(backend.view.settings.skillsTurnedOff).toEqual(['pdf-forms']);
    expect(backend.view.settings.instructionsForEveryChat).toBe('Answer in French.');
  });
});
