import { describe, expect, it } from 'vitest';
import { applyDraft, draftOfServer, EMPTY_DRAFT, type McpServerDraft } from './mcp-server-draft';

const saved = {
  fs: { command: 'npx', args: ['-y', '@scope/server fs'], env: { TOKEN: 'sk-test-value' }, trusted: true },
  web: { url: 'https://example.com/mcp', headers: { 'X-Team': 'a' } },
};
const draft = (fields: Partial<McpServerDraft>): McpServerDraft => ({ ...EMPTY_DRAFT, ...fields });

describe('the MCP server form', () => {
  it('adds a command server after the others, one argument per line, NAME=value per line', () => {
    const result = applyDraft(draft({ name: 'git', command: 'uvx', args: 'mcp-server-git\n--repository\n/home/me/my repo', env: 'A=1\nB=x=y' }), saved, null);
    expect(result).toEqual({
      ok: true,
      name: 'git',
      servers: { ...saved, git: { command: 'uvx', args: ['mcp-server-git', '--repository', '/home/me/my repo'], env: { A: '1', B: 'x=y' } } },
    });
  });

  it('edits and renames a server in its place, keeping what the form does not show', () => {
    const form = draftOfServer('fs', saved.fs);
    expect(form).toEqual({ ...EMPTY_DRAFT, name: 'fs', kind: 'command', command: 'npx', args: '-y\n@scope/server fs', env: 'TOKEN=sk-test-value' });
    const result = applyDraft({ ...form, name: 'files', args: `${form.args}\n--read-only` }, saved, 'fs');
    expect(result.ok && Object.keys(result.servers)).toEqual(['files', 'web']);
    expect(result.ok && result.servers.files).toEqual({ command: 'npx', args: ['-y', '@scope/server fs', '--read-only'], env: { TOKEN: 'sk-test-value' }, trusted: true });
    // Headers stay with a URL server edited as one; a server turned into a command keeps only trusted.
    const web = applyDraft({ ...draftOfServer('web', saved.web), url: 'https://example.com/v2' }, saved, 'web');
    expect(web.ok && web.servers.web).toEqual({ url: 'https://example.com/v2', headers: { 'X-Team': 'a' } });
    const local = applyDraft({ ...draftOfServer('fs', saved.fs), kind: 'url', url: 'http://127.0.0.1:9/mcp' }, saved, 'fs');
    expect(local.ok && local.servers.fs).toEqual({ url: 'http://127.0.0.1:9/mcp', trusted: true });
  });

  it.each([
    ['an empty name', draft({ name: '  ', command: 'x' }), { name: 'An MCP server needs a name.' }],
    ['a name taken', draft({ name: 'web', command: 'x' }), { name: expect.stringMatching(/already a server named "web"/) }],
    ['a name no tool can start with', draft({ name: 'my server', command: 'x' }), { name: expect.stringMatching(/letters, digits, _ and -/) }],
    ['an empty command', draft({ name: 'a', command: '   ' }), { command: 'Enter the command that starts the server.' }],
    ['a URL that is not http(s)', draft({ name: 'a', kind: 'url', url: 'ftp://example.com/mcp' }), { url: expect.stringMatching(/http:\/\/ or https:\/\//) }],
    ['no URL', draft({ name: 'a', kind: 'url' }), { url: expect.stringMatching(/http:\/\/ or https:\/\//) }],
    ['a malformed environment line', draft({ name: 'a', command: 'x', env: 'A=1\nexport B' }), { env: expect.stringMatching(/^Environment line 2: write it as NAME=value/) }],
  ])('refuses %s next to its field', (_what, form, errors) => {
    expect(applyDraft(form, saved, null)).toEqual({ ok: false, errors });
  });

  it('keeps its own name when edited unchanged, and says every wrong field at once', () => {
    expect(applyDraft(draftOfServer('web', saved.web), saved, 'web')).toEqual({ ok: true, name: 'web', servers: saved });
    expect(applyDraft(draft({ name: 'fs', command: '', env: '=1' }), saved, null)).toEqual({
      ok: false,
      errors: { name: expect.stringMatching(/already/), command: expect.any(String), env: expect.stringMatching(/line 1/) },
    });
  });
});
