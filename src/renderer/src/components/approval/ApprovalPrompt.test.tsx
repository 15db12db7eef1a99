// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../../shared/prompts';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

const request = (extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'req-1',
  sessionId: 's1',
  toolUseId: 'toolu_1',
  toolName: 'edit_file',
  kind: 'edit',
  summary: 'Edit src/a.ts',
  dryRun: 'Would edit src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new',
  createdAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

const mount = mountApp;

describe('approval card', () => {
  it('appears on approval_requested with the diff, takes focus, and Deny answers main once', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const answers: unknown[] = [];
    backend.override('answerApproval', (input) => {
      answers.push(input);
      return { accepted: true };
    });
    mount(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('alertdialog')).toBeNull();

    backend.emit({ type: 'approval_requested', sessionId: 's1', request: request() });
    const card = await screen.findByRole('alertdialog', { name: 'Approve this file change? Edit src/a.ts' });
    expect(document.activeElement).toBe(card);
    expect(card.textContent).toContain('edit_file');
    expect(card.querySelector('[data-diff="add"]')?.textContent).toBe('Added: +new');
    expect(card.querySelector('[data-diff="del"]')?.textContent).toBe('Removed: -old');
    expect(card.querySelector('[data-diff="hunk"]')?.textContent).toBe('@@ -1,2 +1,2 @@');

    expect(screen.getByRole('button', { name: 'Approve for this chat' }).hasAttribute('disabled')).toBe(true);
    expect(card.textContent).toContain('can only be approved once');
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(answers).toEqual([{ sessionId: 's1', requestId: 'req-1', decision: 'deny' }]);
  });

  it('comes back from the snapshot after a reload, names the MCP server, and goes when main resolves it', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const mcp = request({ id: 'req-2', kind: 'mcp', toolName: 'files__read', server: 'files', summary: 'files: read', dryRun: 'Would call read on MCP server "files" with {}' });
    backend.override('getSession', () => ({ ...backendSnapshot(backend), pendingApproval: mcp, runState: { status: 'awaiting_approval', requestId: 'req-2' } }));
    mount(backend);
    const card = await screen.findByRole('alertdialog', { name: /Approve this MCP tool call\? files: read/ });
    expect(card.textContent).toContain('from MCP server files');
    expect(card.querySelector('pre')?.textContent).toBe('Would call read on MCP server "files" with {}');

    backend.emit({ type: 'approval_resolved', sessionId: 's1', requestId: 'other', decision: 'cancelled' });
    expect(screen.getByRole('alertdialog')).toBeTruthy(); // another request's resolution changes nothing
    backend.emit({ type: 'approval_resolved', sessionId: 's1', requestId: 'req-2', decision: 'cancelled' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});

describe('scoped approvals', () => {
  it('"Approve for this chat" and "Always approve" say what they cover and send their decision', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const answers: unknown[] = [];
    backend.override('answerApproval', (input) => {
      answers.push(input);
      return { accepted: true };
    });
    mount(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    const command = request({ kind: 'command', toolName: 'run_command', summary: 'Run `npm test`', dryRun: 'Would run: npm test', scope: { tool: 'run_command', pattern: 'npm test' } });
    backend.emit({ type: 'approval_requested', sessionId: 's1', request: command });
    const card = await screen.findByRole('alertdialog', { name: /Approve this command\?/ });
    expect(card.textContent).toContain('exactly the command “npm test” (not with other arguments)');
    expect(['Approve', 'Approve for this chat', 'Always approve', 'Deny'].map((name) => screen.getByRole('button', { name }).hasAttribute('disabled'))).toEqual([false, false, false, false]);
    fireEvent.click(screen.getByRole('button', { name: 'Approve for this chat' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    backend.emit({ type: 'approval_requested', sessionId: 's1', request: { ...command, id: 'req-2', kind: 'edit', scope: { tool: 'edit_file', pattern: '**' } } });
    expect((await screen.findByRole('alertdialog')).textContent).toContain('edit_file on any file in the workspace');
    fireEvent.click(screen.getByRole('button', { name: 'Always approve' }));
    await waitFor(() => expect(answers).toHaveLength(2));
    expect(answers.map((a) => (a as { decision: string }).decision)).toEqual(['approve_chat', 'approve_always']);
  });

  it('a protected change says why it always asks, in the dialog description, and offers only Approve and Deny', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    mount(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    const why = "This changes git's configuration (.git/config), which can name programs git runs (a diff tool, a filter, a hooks folder).";
    backend.emit({
      type: 'approval_requested',
      sessionId: 's1',
      request: request({ toolName: 'write_file', summary: 'Write .git/config (30 bytes)', scope: null, protected: why }),
    });
    const card = await screen.findByRole('alertdialog', { name: 'Approve this file change? Write .git/config (30 bytes)' });
    expect(card.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent)).toContain(why);
    expect(card.textContent).toContain('No approval rule, scope or auto-approve setting covers it');
    expect(card.textContent).not.toContain('shell operators');
    expect(['Approve', 'Approve for this chat', 'Always approve', 'Deny'].map((name) => screen.getByRole('button', { name }).hasAttribute('disabled'))).toEqual([false, true, true, false]);
  });
});

function backendSnapshot(backend: MemoryBackend) {
  const chat = backend.chats.get('s1')!;
  return { session: chat.summary, transcript: chat.transcript, olderItems: 0, runState: chat.runState, plan: chat.plan };
}
