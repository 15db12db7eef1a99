// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalRuleFields, EMPTY_PATTERN_MESSAGE, type ApprovalRule } from '../../../../shared/approval-rules';
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

  it('adds a rule by hand ("Never allow"), held until Save, and refuses an empty pattern with a clear message', async () => {
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
    await waitFor(() => expect(within(section).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Never allow write_file: secrets/** (not saved yet: Save applies it)Remove rule']));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();
    expect(backend.view.settings.approvalRules).toEqual([]);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
    expect(backend.view.settings.approvalRules).toMatchObject([{ tool: 'write_file', pattern: 'secrets/**', effect: 'deny' }]);
  });

  it('Cancel drops a rule added in the dialog: nothing reaches main', async () => {
    const backend = backendWith([]);
    const sent: unknown[] = [];
    backend.override('addApprovalRule', (input) => {
      sent.push(input);
      throw new Error('not expected');
    });
    mountApp(backend);
    const section = await openRules();
    fireEvent.change(within(section).getByLabelText('Command or path'), { target: { value: 'npm test' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(1));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
    expect(sent).toEqual([]);
    expect(backend.view.settings.approvalRules).toEqual([]);
    const again = await openRules();
    expect(again.textContent).toContain('No saved rules');
  });

  it('Remove rule on a rule not saved yet just drops it; on a saved one it is sent at once', async () => {
    const backend = backendWith([rule('a', 'run_command', 'npm test')]);
    const removed: unknown[] = [];
    backend.override('removeApprovalRule', ({ id }) => {
      removed.push(id);
      backend.view = { ...backend.view, settings: { ...backend.view.settings, approvalRules: backend.view.settings.approvalRules.filter((r) => r.id !== id) } };
      backend.emit({ type: 'settings_updated', view: backend.view });
      return { removed: true };
    });
    mountApp(backend);
    const section = await openRules();
    fireEvent.change(within(section).getByLabelText('Command or path'), { target: { value: 'npm run lint' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    const items = () => within(section).getAllByRole('listitem');
    await waitFor(() => expect(items()).toHaveLength(2));
    fireEvent.click(within(items()[1]!).getByRole('button', { name: 'Remove rule' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(removed).toEqual([]);
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Remove rule' }));
    await waitFor(() => expect(removed).toEqual(['a']));
    expect(section.textContent).toContain('No saved rules');
  });

  it('says a refusal once, in words, and no earlier "Added" stays beside it', async () => {
    mountApp(backendWith([]));
    const section = await openRules();
    fireEvent.change(within(section).getByLabelText('Command or path'), { target: { value: 'npm test' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(within(section).getByRole('status').textContent).toBe('Added: Always allow run_command: npm test. It applies when you press Save.'));
    fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toBe(`Rule not added: ${EMPTY_PATTERN_MESSAGE}`);
    expect(within(section).getByRole('status').textContent).toBe('');
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
    await waitFor(() => expect(within(section).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Never allow delete (MCP server files): every call (not saved yet: Save applies it)Remove rule']));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(backend.view.settings.approvalRules).toHaveLength(1));
    expect(backend.view.settings.approvalRules[0]).toMatchObject({ tool: 'delete', server: 'files', pattern: '*', effect: 'deny' });
  });
});
