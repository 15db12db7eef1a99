// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalRuleFields, type ApprovalRule } from '../../../../shared/approval-rules';
import { describeZodError, WaypointCallError } from '../../../../shared/contract';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

const rule = (id: string, tool: string, pattern: string, effect: ApprovalRule['effect'] = 'allow'): ApprovalRule => ({ id, tool, pattern, effect, createdAt: 't' });

/** A backend whose rules change as main's would, telling every window with settings_updated. */
function backendWith(rules: ApprovalRule[]) {
  const backend = new MemoryBackend();
  backend.addChat('s1', 'Chat');
  backend.view = { ...backend.view, settings: { ...backend.view.settings, approvalRules: rules } };
  const publish = (next: ApprovalRule[]) => {
    backend.view = { ...backend.view, settings: { ...backend.view.settings, approvalRules: next } };
    backend.emit({ type: 'settings_updated', view: backend.view });
  };
  backend.override('removeApprovalRule', ({ id }) => {
    publish(backend.view.settings.approvalRules.filter((r) => r.id !== id));
    return { removed: true };
  });
  backend.override('addApprovalRule', ({ rule: fields }) => {
    const parsed = ApprovalRuleFields.safeParse(fields);
    if (!parsed.success) throw new WaypointCallError('invalid_input', `Rule not saved: ${describeZodError(parsed.error)}`);
    const added = { ...parsed.data, id: `r${backend.view.settings.approvalRules.length + 1}`, createdAt: 't' };
    publish([...backend.view.settings.approvalRules, added]);
    return { rule: added };
  });
  return backend;
}

async function openRules() {
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  return screen.getByRole('group', { name: 'Approval rules' });
}

describe('Settings → Approval rules', () => {
  it('lists each saved rule with its tool and command or path, and Remove rule takes effect at once', async () => {
    mountApp(backendWith([rule('a', 'run_command', 'npm test'), rule('b', 'edit_file', '.env', 'deny'), rule('c', 'write_file', '**')]));
    const section = await openRules();
    const list = within(section).getByRole('list', { name: 'Approval rules' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Always allow run_command: npm testRemove rule',
      'Never allow edit_file: .envRemove rule',
      'Always allow write_file: any path in the workspaceRemove rule',
    ]);
    fireEvent.click(within(within(list).getAllByRole('listitem')[1]!).getByRole('button', { name: 'Remove rule' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(list.textContent).not.toContain('.env');
  });

  it('adds a rule by hand ("Never allow"), and refuses an empty pattern with a clear message', async () => {
    const backend = backendWith([]);
    mountApp(backend);
    const section = await openRules();
    expect(section.textContent).toContain('No saved rules');
    fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    expect((await within(section).findByRole('alert')).textContent).toContain('An approval rule needs a pattern');
    expect(backend.view.settings.approvalRules).toEqual([]);
    fireEvent.change(within(section).getByLabelText('Tool'), { target: { value: 'write_file' } });
    fireEvent.change(within(section).getByLabelText('Command or path'), { target: { value: 'secrets/**' } });
    fireEvent.change(within(section).getByLabelText('Decision'), { target: { value: 'deny' } });
    fireEvent.keyDown(within(section).getByLabelText('Command or path'), { key: 'Enter' });
    await waitFor(() => expect(within(section).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Never allow write_file: secrets/**Remove rule']));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();
  });

  it("offers the tools of a running MCP server: a rule for one covers every call of it, named with its server", async () => {
    const backend = backendWith([]);
    backend.override('getMcpStates', () => ({
      servers: [
        { name: 'files', transport: 'stdio', status: 'ready', toolCount: 2, tools: ['read', 'delete'] },
        { name: 'broken', transport: 'stdio', status: 'failed', error: 'gone', stderrTail: '' },
      ],
    }));
    mountApp(backend);
    const section = await openRules();
    const tool = within(section).getByLabelText('Tool') as HTMLSelectElement;
    await waitFor(() => expect(within(tool).getAllByRole('group').map((g) => g.getAttribute('label'))).toEqual(['Waypoint', 'MCP server files']));
    const deleteOption = within(tool).getByRole('option', { name: 'delete' }) as HTMLOptionElement;
    fireEvent.change(tool, { target: { value: deleteOption.value } });
    expect(within(section).queryByLabelText('Command or path')).toBeNull();
    expect(section.textContent).toContain('Every call of this tool');
    fireEvent.change(within(section).getByLabelText('Decision'), { target: { value: 'deny' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(within(section).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Never allow delete (MCP server files): every callRemove rule']));
    expect(backend.view.settings.approvalRules[0]).toMatchObject({ tool: 'delete', server: 'files', pattern: '*', effect: 'deny' });
  });
});
