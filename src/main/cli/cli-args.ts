import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseBudgetField } from '../../shared/budget';
import { Dialect } from '../../shared/plan';
import { desktopDataDir } from './desktop-data-dir';
import { dataDirProblem } from '../common/data-dir-check';

export interface RunArgs {
  /** What to do; null when resuming a chat. */
  task: string | null;
  workspace: string | null;
  dataDir: string;
  planningStyle: Dialect | null;
  autoApprove: boolean;
  json: boolean;
  /** A chat to continue (it stopped for a person, was stopped, or failed). */
  resume: string | null;
  answer: string | null;
  /** --budget-usd / --max-minutes: the plan's budget for this run (over Settings'); null: Settings'. */
  budgetUsd: number | null;
  maxMinutes: number | null;
  /** --worktree: this run works in a git worktree of its own, as with Settings "Work in a git worktree" on. */
  worktree: boolean;
}

export interface McpArgs {
  dataDir: string;
  planningStyle: Dialect | null;
}

export type CliParse =
  | { kind: 'run'; args: RunArgs }
  | { kind: 'mcp'; args: McpArgs }
  | { kind: 'help'; text: string }
  | { kind: 'error'; message: string };

const STYLES = Dialect.options.join(' | ');

export const MAIN_HELP = `Usage: waypoint <command> [options]

Commands:
  run "TASK" --workspace DIR   Plan and do a task with Claude, headless; the exit code says how it ended
  run --resume CHAT_ID         Continue a run that stopped (--answer ANSWER for what it awaits)
  mcp                          Offer Waypoint's planning tools to another agent over MCP (stdio)

Run "npx waypoint run --help" or "npx waypoint mcp --help" for their options.`;

export const RUN_HELP = `Usage: waypoint run "TASK" --workspace DIR [options]
       waypoint run --resume CHAT_ID [--answer ANSWER] [options]

Runs Waypoint's agent on a task with no window: the plan's progress goes to stdout. The run is a
chat in the data folder, so the app shows it afterwards. Never reads stdin or asks anything.

Options:
  --workspace DIR        Folder Claude works in (required for a new run)
  --data-dir DIR         Chats and settings (default: the desktop app's, ${desktopDataDir()})
  --planning-style S     ${STYLES} (default: the style in Settings, else structured)
  --auto-approve         Approve risky calls (file edits, commands, MCP tools); without it they are refused
  --json                 stdout: one JSON event per line, ending with {"type":"run_finished","exitCode":N}
  --resume CHAT_ID       Continue that chat
  --answer ANSWER        With --resume: skip | abort | guidance text (a failing step), a question's answer,
                         approve | deny (a call the app asked about), approve | feedback (a proposed plan),
                         extend | end (a plan stopped at its budget)
  --budget-usd N         The plan's budget in dollars (default: Settings' "Budget per plan (USD)", else none)
  --max-minutes N        The plan's time in minutes (default: Settings' "Time per plan (minutes)", else none)
  --worktree             Work in a git worktree of the workspace's repository, on a new branch (as Settings
                         "Work in a git worktree" does); the branch is printed and left for review
  --help                 Show this help

Exit codes: 0 done (the plan completed, or the reply is done); 2 a person is needed (the question
and the command that answers it are printed); 3 the Anthropic API kept failing; 4 a risky call was
refused without --auto-approve; 5 the plan's budget stopped the run (the spend is printed; answer
with --resume CHAT_ID --answer extend|end); 1 anything else (an aborted plan, bad input).

Needs ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL is honoured).`;

export const MCP_HELP = `Usage: waypoint mcp --data-dir DIR [--planning-style S]

An MCP server over stdio offering Waypoint's planning tools (one planning style's) to any MCP
client. Each client's plan is a chat in the data folder: a running Waypoint shows it live.
Needs no API key and never calls Claude.

Options:
  --data-dir DIR         Chats and settings (default: the desktop app's, ${desktopDataDir()})
  --planning-style S     ${STYLES} (default: the style in Settings, else structured)
  --help                 Show this help`;

type Parsed = ReturnType<typeof parseArgs<{ options: Record<string, { type: 'string' | 'boolean' }>; allowPositionals: true; strict: true }>>;

function parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>, help: string): Parsed | CliParse {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    return { kind: 'error', message: describeParseError(error as NodeJS.ErrnoException, help) };
  }
}

function describeParseError(error: NodeJS.ErrnoException, help: string): string {
  const command = help.startsWith('Usage: waypoint mcp') ? 'mcp' : 'run';
  const unknown = /Unknown option '([^']+)'/.exec(error.message);
  if (unknown) return `unknown option "${unknown[1]}". Run "npx waypoint ${command} --help" to see the options.`;
  // Node's own words are clear for the rest ("Option '--workspace <value>' argument missing").
  return `${error.message.replace(/\.$/, '')}. Run "npx waypoint ${command} --help" to see the options.`;
}

function style(value: string | undefined): Dialect | null | { error: string } {
  if (value === undefined) return null;
  const parsed = Dialect.safeParse(value);
  return parsed.success ? parsed.data : { error: `unknown planning style "${value}": use one of ${STYLES}.` };
}

/** --budget-usd N / --max-minutes N: the same figures Settings takes (more than 0, a plain number). */
function budgetFlag(value: string | undefined, kind: 'usd' | 'minutes'): number | null | { error: string } {
  if (value === undefined) return null;
  const flag = kind === 'usd' ? '--budget-usd' : '--max-minutes';
  const parsed = parseBudgetField(value.trim() === '' ? 'x' : value, kind);
  if (!parsed.ok) return { error: `${flag} "${value}": ${parsed.error}` };
  return parsed.value;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function dataDirFrom(value: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | { error: string } {
  if (value === '') return { error: '--data-dir needs a folder.' };
  const dir = resolve(cwd, value ?? desktopDataDir(env));
  // A missing folder is created on first use, like the app's; /proc/self as a data folder spun forever.
  const problem = dataDirProblem(dir);
  return problem ? { error: problem } : dir;
}

/** The command line of `waypoint`, checked completely before anything starts: bad input changes nothing. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliParse {
  const [command, ...rest] = argv;
  if (command === undefined) return { kind: 'error', message: 'say what to do: npx waypoint run "TASK" --workspace DIR, or waypoint mcp (see waypoint --help).' };
  if (command === '--help' || command === '-h' || command === 'help') return { kind: 'help', text: MAIN_HELP };
  if (command === 'run') return parseRun(rest, env, cwd);
  if (command === 'mcp') return parseMcp(rest, env, cwd);
  return { kind: 'error', message: `unknown command "${command}": use "waypoint run" or "waypoint mcp" (see waypoint --help).` };
}

function parseRun(argv: string[], env: NodeJS.ProcessEnv, cwd: string): CliParse {
  const parsed = parse(
    argv,
    {
      workspace: { type: 'string' },
      'data-dir': { type: 'string' },
      'planning-style': { type: 'string' },
      'auto-approve': { type: 'boolean' },
      json: { type: 'boolean' },
      resume: { type: 'string' },
      answer: { type: 'string' },
      'budget-usd': { type: 'string' },
      'max-minutes': { type: 'string' },
      worktree: { type: 'boolean' },
    },
    RUN_HELP,
  );
  if ('kind' in parsed) return parsed;
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', text: RUN_HELP };
  const v = values as Record<string, string | boolean | undefined>;
  const resume = (v.resume as string | undefined) ?? null;
  const answer = (v.answer as string | undefined) ?? null;

  if (positionals.length > 1) return { kind: 'error', message: `the task must be one argument: put it in quotes (got ${positionals.length} words: ${positionals.slice(0, 3).join(' ')}…).` };
  const taskText = positionals[0] ?? null;
  if (resume !== null) {
    if (resume.trim() === '') return { kind: 'error', message: '--resume needs the chat id that the stopped run printed.' };
    if (taskText !== null) return { kind: 'error', message: '--resume continues a chat: give no task with it (use --answer to answer its question).' };
  } else {
    if (answer !== null) return { kind: 'error', message: '--answer answers the question of a stopped run: use it with --resume CHAT_ID.' };
    if (taskText === null) return { kind: 'error', message: 'say what to do: npx waypoint run "TASK" --workspace DIR (or --resume CHAT_ID).' };
    if (taskText === '-') return { kind: 'error', message: 'waypoint run never reads stdin: pass the task as an argument, e.g. npx waypoint run "$(cat task.txt)" --workspace DIR.' };
    if (taskText.trim() === '') return { kind: 'error', message: 'the task is empty: say what to do, e.g. npx waypoint run "Add a README" --workspace DIR.' };
  }
  if (resume !== null && v.worktree === true) return { kind: 'error', message: '--worktree is for a new run: a resumed chat keeps the folder it works in.' };
  if (answer !== null && answer.trim() === '') return { kind: 'error', message: '--answer is empty: give skip, abort, or what Claude should do.' };

  const workspaceText = v.workspace as string | undefined;
  let workspace: string | null = null;
  if (workspaceText !== undefined) {
    workspace = resolve(cwd, workspaceText);
    if (workspaceText === '' || !isFolder(workspace)) return { kind: 'error', message: `workspace "${workspaceText === '' ? '' : workspace}" does not exist or is not a folder.` };
  } else if (resume === null) {
    return { kind: 'error', message: '--workspace DIR is required: the folder Claude may read and change.' };
  }

  const planningStyle = style(v['planning-style'] as string | undefined);
  if (planningStyle && typeof planningStyle === 'object') return { kind: 'error', message: planningStyle.error };
  const budgetUsd = budgetFlag(v['budget-usd'] as string | undefined, 'usd');
  if (typeof budgetUsd === 'object' && budgetUsd !== null) return { kind: 'error', message: budgetUsd.error };
  const maxMinutes = budgetFlag(v['max-minutes'] as string | undefined, 'minutes');
  if (typeof maxMinutes === 'object' && maxMinutes !== null) return { kind: 'error', message: maxMinutes.error };
  const dataDir = dataDirFrom(v['data-dir'] as string | undefined, env, cwd);
  if (typeof dataDir === 'object') return { kind: 'error', message: dataDir.error };

  return {
    kind: 'run',
    args: { task: taskText, workspace, dataDir, planningStyle, autoApprove: v['auto-approve'] === true, json: v.json === true, resume, answer, budgetUsd, maxMinutes, worktree: v.worktree === true },
  };
}

function parseMcp(argv: string[], env: NodeJS.ProcessEnv, cwd: string): CliParse {
  const parsed = parse(argv, { 'data-dir': { type: 'string' }, 'planning-style': { type: 'string' } }, MCP_HELP);
  if ('kind' in parsed) return parsed;
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', text: MCP_HELP };
  if (positionals.length) return { kind: 'error', message: `waypoint mcp takes no arguments (got "${positionals[0]}"). Run "npx waypoint mcp --help" to see the options.` };
  const v = values as Record<string, string | boolean | undefined>;
  const planningStyle = style(v['planning-style'] as string | undefined);
  if (planningStyle && typeof planningStyle === 'object') return { kind: 'error', message: planningStyle.error };
  const dataDir = dataDirFrom(v['data-dir'] as string | undefined, env, cwd);
  if (typeof dataDir === 'object') return { kind: 'error', message: dataDir.error };
  return { kind: 'mcp', args: { dataDir, planningStyle } };
}
