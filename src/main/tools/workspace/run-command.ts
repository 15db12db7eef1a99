import fs from 'node:fs/promises';
import { z } from 'zod';
import { fail, ok, type ToolDefinition, type ToolOutcome } from '../tool';
import { confine } from './confine';
import { guarded } from './fs-errors';
import { defineTool } from '../define-tool';
import { runInProcessGroup, type RunResult } from './process-runner';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const OUTPUT_CAP_BYTES = 30 * 1024;

const Input = z
  .object({
    command: z.string().trim().min(1).max(20_000).describe('Shell command line, run with /bin/sh -c'),
    cwd: z.string().optional().describe('Folder to run in, relative to the workspace root (default: the root)'),
    timeout_ms: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe(`Time limit in ms (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS})`),
  })
  .strict();

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function transcript(command: string, where: string, result: RunResult, status: string): string {
  const parts = [`$ ${command}`, `(in ${where}) ${status} after ${seconds(result.durationMs)}`];
  if (result.stdout) parts.push(`--- stdout ---\n${result.stdout.trimEnd()}`);
  if (result.stderr) parts.push(`--- stderr ---\n${result.stderr.trimEnd()}`);
  if (!result.stdout && !result.stderr) parts.push('(no output)');
  return parts.join('\n');
}

function toOutcome(command: string, where: string, timeoutMs: number, result: RunResult): ToolOutcome {
  const end = result.end;
  switch (end.status) {
    case 'exited': {
      // A non-zero exit is information (failing tests, grep without matches), not a tool fault.
      const status = end.code !== null ? `exit code ${end.code}` : `killed by signal ${end.signal ?? 'unknown'}`;
      return ok(transcript(command, where, result, status));
    }
    case 'timed_out':
      return fail('timeout', `${transcript(command, where, result, `timed out (limit ${seconds(timeoutMs)}); the process group was killed`)}\nRaise timeout_ms (max ${MAX_TIMEOUT_MS}) or run something quicker.`);
    case 'stopped':
      return fail('unknown', transcript(command, where, result, 'stopped by the user; the process group was killed'));
    case 'spawn_failed':
      return fail('unavailable', `Could not start the command in ${where}: ${end.message}`);
  }
}

export function createRunCommandTool(root: string): ToolDefinition {
  return defineTool({
    name: 'run_command',
    description:
      'Run a shell command (/bin/sh -c) in the workspace and return its exit code, stdout and stderr (each cut to the last ' +
      `${OUTPUT_CAP_BYTES / 1024} KB). No stdin; default time limit ${DEFAULT_TIMEOUT_MS / 1000} s.`,
    input: Input,
    group: 'workspace',
    label: 'Run a command',
    summarize: (v) => `Run \`${v.command}\`${v.cwd && v.cwd !== '.' ? ` in ${v.cwd}` : ''}`,
    describeDryRun(v) {
      const target = confine(root, v.cwd ?? '.');
      if (!target.ok) return `Cannot run in ${v.cwd}: ${target.error.message}`;
      const where = target.path.rel === '.' ? 'the workspace root' : target.path.rel;
      return `Would run: ${v.command}\nin ${where} (time limit ${seconds(v.timeout_ms ?? DEFAULT_TIMEOUT_MS)})`;
    },
    // Approval rules (the old allow-list among them) cover exact command lines: tools/approval-rules.ts.
    needsApproval: (_input, settings) => !settings.autoApproveCommands,
    ruleSubject: (v) => ({ kind: 'command', command: v.command }),
    async execute(input, ctx) {
      const { command, timeout_ms } = input;
      const target = confine(root, input.cwd ?? '.');
      if (!target.ok) return target;
      const { abs, rel } = target.path;
      const where = rel === '.' ? 'the workspace root' : rel;
      return guarded('run a command in', rel, async () => {
        const stat = await fs.stat(abs);
        if (!stat.isDirectory()) return fail('invalid_parameter', `cwd ${rel} is a file; give a folder.`);
        const timeoutMs = timeout_ms ?? DEFAULT_TIMEOUT_MS;
        const result = await runInProcessGroup({ command, cwd: abs, timeoutMs, signal: ctx.signal, outputCap: OUTPUT_CAP_BYTES });
        return toOutcome(command, where, timeoutMs, result);
      });
    },
  });
}
