import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UserFacingError } from '../../common/errors';

/**
 * Real git, run as a program with its arguments (no shell: a path or branch name is never
 * parsed as shell words). `bin` is "git" on PATH; tests name a missing one to see that fault.
 */
export interface GitRunner {
  /** git's stdout; throws GitFailed (git said no) or UserFacingError (git is missing). */
  run(cwd: string, args: readonly string[], options?: { env?: NodeJS.ProcessEnv; okCodes?: readonly number[]; signal?: AbortSignal }): Promise<GitOutput>;
}

export interface GitOutput {
  stdout: string;
  code: number;
}

/** git ran and refused: its own words (stderr) are kept for the message the user reads. */
export class GitFailed extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${code}): ${stderr.trim() || 'no message'}`);
    this.name = 'GitFailed';
  }
}

/** The folder git was to run in is not there (a worktree deleted by hand). */
export class FolderGone extends Error {
  constructor(readonly folder: string) {
    super(`The folder ${folder} is not there.`);
    this.name = 'FolderGone';
  }
}

export const GIT_MISSING_MESSAGE =
  'git was not found on this computer (or not on PATH), so Waypoint cannot make a worktree: install git, or turn off "Work in a git worktree" in Settings.';

/** Diffs of a chat that touched thousands of files run to many megabytes; git's output is never cut. */
const MAX_BUFFER = 512 * 1024 * 1024;

export function gitRunner(bin = 'git'): GitRunner {
  return {
    run: (cwd, args, options = {}) =>
      new Promise((resolve, reject) => {
        // A missing folder would look like a missing git (both are ENOENT from spawn).
        if (!existsSync(cwd)) return reject(new FolderGone(cwd));
        execFile(
          bin,
          [...args],
          {
            cwd,
            maxBuffer: MAX_BUFFER,
            encoding: 'utf8',
            // Aborted: git is killed, and its caller, which aborted, ignores what comes back.
            ...(options.signal ? { signal: options.signal } : {}),
            // No pager, no prompt for credentials, and git's words in English: we quote them.
            env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', ...options.env },
          },
          (error, stdout, stderr) => {
            if (!error) return resolve({ stdout, code: 0 });
            const code = typeof error.code === 'number' ? error.code : NaN;
            if ((error as NodeJS.ErrnoException).code === 'ENOENT' && Number.isNaN(code)) {
              return reject(new UserFacingError('invalid_input', GIT_MISSING_MESSAGE));
            }
            if (options.okCodes?.includes(code)) return resolve({ stdout, code });
            reject(new GitFailed(args, code, stderr));
          },
        );
      }),
  };
}

/** The first line of what git said, for a message. */
export function gitWords(error: unknown): string {
  if (error instanceof GitFailed) return error.stderr.trim().split('\n')[0] || `exit code ${error.code}`;
  return error instanceof Error ? error.message : String(error);
}
