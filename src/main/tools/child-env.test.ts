import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings';
import type { ToolContext } from './tool';
import { commandEnv, isAllowedVariable, mcpServerEnv, scrubbedEnv } from './child-env';
import { McpManager } from './mcp/mcp-manager';
import { createWorkspaceTools } from './workspace/index';
import { expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace } from '../../../test-support/main/test-workspace';
import { callTool } from './define-tool';

/** Values that must never reach a child process (each distinctive, so a grep finds it anywhere). */
const SECRETS: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-test-anthropic-0b7d2',
  ANTHROPIC_AUTH_TOKEN: 'test-auth-token-51ce9',
  GITHUB_TOKEN: 'ghp-test-token-9a1f3',
  AWS_SECRET_ACCESS_KEY: 'aws-test-secret-77e20',
  DB_PASSWORD: 'db-test-password-c4d18',
  NPM_CONFIG__AUTH: 'npm-test-auth-3f0aa',
  MY_API_KEY: 'my-test-api-key-e6b52',
};

const saved = new Map<string, string | undefined>();
beforeEach(() => {
  for (const [name, value] of Object.entries(SECRETS)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('child process environment', () => {
  it('keeps the allow-listed variables only; nothing that looks like a secret passes, whatever its name', () => {
    const env = scrubbedEnv({ PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm', ...SECRETS, EDITOR: 'vi', SSH_AUTH_SOCK: '/tmp/s' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm' });
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/), fc.constantFrom('KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'AUTH', 'ANTHROPIC_'), (name, marker) => {
        expect(isAllowedVariable(`${name}${marker}`)).toBe(false);
        expect(isAllowedVariable(`${marker}${name}`)).toBe(false);
      }),
    );
    expect(commandEnv({ PATH: '/bin' })).toMatchObject({ PATH: '/bin', NO_COLOR: '1', GIT_TERMINAL_PROMPT: '0' });
    // A server's own configuration is what the user gave it: those values pass.
    expect(mcpServerEnv({ PATH: '/bin', GITHUB_TOKEN: 'x' }, { GITHUB_TOKEN: 'given' })).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'given' });
  });

  describe('run_command', () => {
    let ws: TempWorkspace;
    beforeEach(() => {
      ws = makeWorkspace();
    });
    afterEach(() => ws.cleanup());

    it('printenv shows no secret of Waypoint’s environment; colour codes are stripped from the output', async () => {
      const run = findTool(createWorkspaceTools(ws.root), 'run_command');
      const text = expectOk(await callTool(run, { command: 'printenv' }, makeContext()));
      for (const [name, value] of Object.entries(SECRETS)) {
        expect(text, name).not.toContain(name);
        expect(text, name).not.toContain(value);
      }
      expect(text).toMatch(/^PATH=/m);
      expect(text).toMatch(/^NO_COLOR=1$/m);
      const coloured = expectOk(await callTool(run, { command: "printf '\\033[31mred\\033[0m \\033[1;4mbold\\033[0m\\n'" }, makeContext()));
      expect(coloured).toContain('--- stdout ---\nred bold');
      expect(coloured).not.toContain('\u001b');
    });
  });

  it('an MCP stdio server sees the scrubbed environment plus exactly the variables its config sets', async () => {
    const server = path.resolve('test-support/mcp-server/stdio.ts');
    const manager = new McpManager({ envtest: { command: process.execPath, args: ['--import', 'tsx', server, '--env-tool'], env: { GIVEN_TOKEN: 'configured-value' } } });
    try {
      await manager.start();
      const tool = manager.tools().find((t) => t.name === 'envtest__env');
      expect(tool, manager.states().map((s) => JSON.stringify(s)).join()).toBeDefined();
      const ctx: ToolContext = { sessionId: 's', signal: new AbortController().signal, settings: defaultSettings() };
      const outcome = await callTool(tool!, {}, ctx);
      const env = JSON.parse(outcome.ok ? outcome.content : '{}') as Record<string, string>;
      expect(env.GIVEN_TOKEN).toBe('configured-value');
      expect(env.PATH).toBeTruthy();
      for (const name of Object.keys(SECRETS)) expect(env, name).not.toHaveProperty(name);
      expect(JSON.stringify(env)).not.toMatch(/test-(anthropic|auth-token|token|secret|password|auth|api-key)/);
    } finally {
      await manager.dispose();
    }
  }, 90_000);
});
