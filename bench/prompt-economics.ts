import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatsAndRuns } from '../test-support/main/chats-and-runs';
import { EventRecorder, keySource, settingsSource } from '../test-support/main/chat-test-harness';
import { ToolRegistry } from '../src/main/tools/tool-registry';
import { PlanService } from '../src/main/plan/plan-service';
import type { Dialect } from '../src/shared/plan';
import type { Settings } from '../src/shared/settings';
import { startScriptedServer } from '../test-support/scripted-api/server';
import type { Scenario } from '../test-support/scripted-api/scenario';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { twentyTurnScenario } from './prompt-scenario';
import { editNote, type PlanEditRecord } from '../src/shared/plan-edit';
import { estimateRequest } from '../src/main/agent/context/token-estimate';
import { proposalNote } from '../src/main/plan/engine/plan-review';
import { ProjectContext } from '../src/main/agent/prompts/project-context';

const KEY = 'sk-ant-bench-prompt-key';
const TODOWRITE_TOKENS = 2000; // Claude Code's TodoWrite tool description, as published (≈)
const CODEX_UPDATE_PLAN_TOKENS = 155; // Codex's update_plan tool, as published (≈)
const tokens = (chars: number) => Math.ceil(chars / 4);
const TOKEN_METHOD = 'tokens ≈ chars/4 (no tokenizer offline)';

interface Body {
  system?: string | { type: string; text: string }[];
  tools?: unknown[];
  messages: unknown[];
}

/** What a workspace brings to a request: its AGENTS.md / CLAUDE.md and its skills (.claude/skills). */
interface Workspace {
  instructions?: boolean;
  skills?: boolean;
}

/** Instruction files and skills of a typical size (a page of AGENTS.md, a short CLAUDE.md, three skills). */
function makeWorkspace(root: string, ws: Workspace): string {
  const dir = join(root, 'workspace');
  mkdirSync(join(dir, '.git'), { recursive: true });
  if (ws.instructions) {
    const rules = ['Use pnpm, never npm.', 'Run `pnpm test` before saying a change is done.', 'Dates are UTC everywhere; inject the clock in tests.', 'Keep functions under 40 lines; name files for what they hold.', 'Commit messages say why, in the present tense.'];
    writeFileSync(join(dir, 'AGENTS.md'), `# Working on this repository\n\n${rules.map((r) => `- ${r}`).join('\n')}\n\nThe code lives in src/, tests next to it as *.test.ts.\n`);
    writeFileSync(join(dir, 'CLAUDE.md'), 'Prefer small diffs. Ask before adding a dependency.\n');
  }
  if (ws.skills) {
    const skills = [
      ['release-notes', 'Write release notes from the git log since the last tag.'],
      ['db-migrations', 'Write and check a database migration for the orders service.'],
      ['pdf-forms', 'Fill in and flatten PDF forms with pdf-lib.'],
    ];
    for (const [name, description] of skills) {
      mkdirSync(join(dir, '.claude', 'skills', name!), { recursive: true });
      writeFileSync(join(dir, '.claude', 'skills', name!, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\nSteps for ${name}: read the notes, then follow them.\n`);
    }
  }
  return dir;
}

/** "Instructions for every chat" of a typical size (two short rules). */
const EVERY_CHAT = 'Answer in British English. Say when you are unsure rather than guessing.';

/** Drives the real ChatService + PlanService + SDK against the scripted server; returns request bodies. */
async function requestsOf(scenario: Scenario, settings: Partial<Settings>, text = 'Please fix the flaky date test.', ws?: Workspace): Promise<Body[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-bench-prompt-'));
  const server = await startScriptedServer({ scenario, requireApiKey: KEY });
  const plans = new PlanService({ dataDir });
  const workspace = ws ? makeWorkspace(dataDir, ws) : null;
  const project = ws ? { project: new ProjectContext(join(dataDir, 'data')) } : {};
  const { chats, chat: service, dispose: disposeChats } = chatsAndRuns({ settings: settingsSource(settings), apiKey: keySource(KEY), plans, tools: new ToolRegistry(), baseURL: server.url, workspace, ...project });
  try {
    const recorder = new EventRecorder();
    chats.onEvent(recorder.listener);
    const session = chats.newSession();
    service.sendMessage(session.id, text);
    await recorder.idle(session.id, 0, 60_000);
    return server.requests.map((r) => r.body as Body);
  } finally {
    disposeChats();
    plans.dispose();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The system prompt's text, whether sent as a string or as text blocks (with cache_control). */
const systemText = (b: Body): string => (typeof b.system === 'string' ? b.system : (b.system ?? []).map((block) => block.text).join('\n'));

/** Cache breakpoints mark where a cached prefix ends; they are not part of what is cached. */
const withoutCacheControl = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'cache_control' ? undefined : v)));

const commonPrefix = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

/** The order the API builds its prompt (and its cache key) in: tools, then system, then messages. */
const cacheOrder = (b: Body) => JSON.stringify(withoutCacheControl([b.tools ?? [], b.system ?? '', b.messages]));

export const promptEconomicsBench: Benchmark = async () => {
  const m = metricsFor('prompt');
  const metrics: Metric[] = [];
  const echo: Scenario = { name: 'bench-echo', turns: [] };
  const [base] = await requestsOf(echo, { agenticMode: false });
  const baseChars = systemText(base!).length + JSON.stringify(withoutCacheControl(base!.tools ?? [])).length;
  for (const dialect of ['structured', 'checklist', 'wbs', 'session'] as Dialect[]) {
    const [agentic] = await requestsOf(echo, { agenticMode: true, planningStyle: dialect });
    const toolChars = JSON.stringify(withoutCacheControl(agentic!.tools ?? [])).length;
    const guidanceChars = systemText(agentic!).length - systemText(base!).length;
    const added = tokens(toolChars + systemText(agentic!).length - baseChars);
    const method = `first request with agentic mode on minus agentic mode off (same ChatService, real SDK, scripted server): tools JSON ${tokens(toolChars)} + guidance ${tokens(guidanceChars)} tokens; ${TOKEN_METHOD}`;
    const isDefault = dialect === 'structured';
    metrics.push(
      m(`${dialect}${isDefault ? ' (default)' : ''}: planning tokens per request`, added, 'tokens', method, isDefault ? { text: `< ${TODOWRITE_TOKENS / 2} (half of TodoWrite ≈${TODOWRITE_TOKENS}; Codex update_plan ≈${CODEX_UPDATE_PLAN_TOKENS})`, met: added < TODOWRITE_TOKENS / 2 } : undefined),
    );
  }

  metrics.push(...(await planFirstAndEditNotes(echo)));
  metrics.push(...(await projectAndWebSearch(echo)));

  // The 20-request run with everything that adds to every request on: instructions (files and
  // "Instructions for every chat"), the skills list and web search.
  // The plan's goal check after the last step is a one-off request of its own (another system
  // prompt and tools, no shared prefix): not a turn of the run, so it stays out of the measure.
  const allOn = { agenticMode: true, planningStyle: 'structured' as const, webSearch: true, instructionsForEveryChat: EVERY_CHAT, goalChecks: 0 };
  const bodies = await requestsOf(twentyTurnScenario(), allOn, undefined, { instructions: true, skills: true });
  const pairs = (render: (b: Body) => string) =>
    bodies.slice(1).map((body, i) => {
      const prev = render(bodies[i]!);
      const next = render(body);
      return { common: commonPrefix(prev, next), prev: prev.length, next: next.length };
    });
  const cache = pairs(cacheOrder);
  const wire = pairs((b) => JSON.stringify(b));
  const weighted = (ps: typeof cache) => ps.reduce((n, p) => n + p.common, 0) / ps.reduce((n, p) => n + p.next, 0);
  const runMethod = `${bodies.length} requests of a scripted structured-plan run (real ChatService, SDK, PlanService) with AGENTS.md + CLAUDE.md, "Instructions for every chat", three skills and web search on`;
  const order = "in the API's prompt order (tools → system → messages), cache_control markers removed";
  metrics.push(
    m('cache-stable share of request bytes over the run', 100 * weighted(cache), '%', `${runMethod}: Σ bytes each request shares as a prefix with the previous one ÷ Σ request bytes, ${order}`, { text: '> 95 %', met: weighted(cache) > 0.95 }),
    m('cache-stable share, worst single request', 100 * Math.min(...cache.map((p) => p.common / p.next)), '%', `${runMethod}: smallest per-request share (early requests are small, so the new turn weighs more), ${order}`),
    m('previous request kept as prefix, worst', 100 * Math.min(...cache.map((p) => p.common / p.prev)), '%', `${runMethod}: how much of request n-1 request n repeats byte for byte (100 % = nothing earlier changed), ${order}`),
    m('stable share of the JSON as sent', 100 * weighted(wire), '%', `${runMethod}: same Σ share on the raw body bytes (tools come after messages, the last-message breakpoint moves)`),
    m('cache_control breakpoints per request', bodies.reduce((n, b) => n + (JSON.stringify(b).match(/"cache_control"/g)?.length ?? 0), 0) / bodies.length, '', 'count of "cache_control" in each request body, averaged: without a breakpoint the API caches nothing'),
    m('request size at request 20', JSON.stringify(bodies.at(-1)).length / 1024, 'KB', 'JSON body of the last request of the run'),
  );
  return metrics;
};

/**
 * What a workspace's instructions, its skills list and web search add to every request: the
 * first request with each on minus all off (system prompt and tools JSON, same estimate as the
 * planning tools). Web search counts its tool definition only; the API adds its own text for a
 * server tool, which no offline count can see.
 */
async function projectAndWebSearch(echo: Scenario): Promise<Metric[]> {
  const m = metricsFor('prompt');
  const size = (b: Body) => systemText(b).length + JSON.stringify(withoutCacheControl(b.tools ?? [])).length;
  const settings = { agenticMode: true, planningStyle: 'structured' as const };
  const [off] = await requestsOf(echo, settings, undefined, {});
  const [instructions] = await requestsOf(echo, { ...settings, instructionsForEveryChat: EVERY_CHAT }, undefined, { instructions: true });
  const [skills] = await requestsOf(echo, settings, undefined, { skills: true });
  const [web] = await requestsOf(echo, { ...settings, webSearch: true }, undefined, {});
  const how = 'first request with it on minus all off (same ChatService, real SDK, scripted server), system prompt + tools JSON; ' + TOKEN_METHOD;
  return [
    m('instructions per request (AGENTS.md + CLAUDE.md + "Instructions for every chat")', tokens(size(instructions!) - size(off!)), 'tokens', `${how}; a 9-line AGENTS.md, a 1-line CLAUDE.md, a 2-sentence "Instructions for every chat"`),
    m('skills list per request (three skills, with load_skill and read_skill_file)', tokens(size(skills!) - size(off!)), 'tokens', `${how}; the list in the system prompt and the two skill tools`),
    m('web search per request (the web_search tool definition)', tokens(size(web!) - size(off!)), 'tokens', `${how}; the API's own text for its server tool is not counted (not visible offline); searches are billed apart, $10 per 1,000`),
  ];
}

/**
 * What plan first and the user's edits add to a request (issue 14), by the repo's token estimate
 * (context/token-estimate.ts estimateRequest): the plan-first note in the system
 * prompt while a chat waits for an approved plan (first request with "Plan first" on minus off),
 * and the note an edit leaves at the end of the next request (once; it then stays in the history).
 */
async function planFirstAndEditNotes(echo: Scenario): Promise<Metric[]> {
  const m = metricsFor('prompt');
  const metrics: Metric[] = [];
  const estimate = (system: string) => estimateRequest({ system, messages: [] });
  for (const dialect of ['structured', 'checklist', 'wbs', 'session'] as Dialect[]) {
    const [off] = await requestsOf(echo, { agenticMode: true, planningStyle: dialect });
    const [on] = await requestsOf(echo, { agenticMode: true, planningStyle: dialect, planFirst: true });
    const added = estimate(systemText(on!)) - estimate(systemText(off!));
    metrics.push(
      m(`${dialect}: plan-first note per request while the plan awaits approval`, added, 'tokens', 'first request with Plan first on minus off (same ChatService, real SDK, scripted server), system prompt through estimateRequest; gone once the plan is approved'),
    );
  }
  const proposed = Math.ceil(JSON.stringify(proposalNote({ version: 1, steps: ['a step'] })).length / 4);
  metrics.push(m("plan-first note in a proposing call's result", proposed, 'tokens', 'appended to each planning result that changes a plan awaiting approval (once per such call, not per request), same estimate'));
  const edit = (kind: PlanEditRecord['kind'], stepId: number, title: string, extra: Partial<PlanEditRecord> = {}): PlanEditRecord => ({ version: 10 + stepId, at: '', kind, stepId, title, ...extra });
  const one = [edit('skip', 4, 'Update the API documentation')];
  const five = [
    edit('rename', 3, 'Write the migration for the new column', { from: 'Write the migration' }),
    ...one,
    edit('delete', 5, 'Clean up the old endpoint'),
    edit('move', 2, 'Add input validation', { direction: 'down' }),
    edit('add', 7, 'Update the changelog'),
  ];
  const noteTokens = (records: PlanEditRecord[]) => Math.ceil(JSON.stringify({ type: 'text', text: editNote(records, 16) }).length / 4);
  const how = "a text block at the end of the next request's last user message, sent once (then part of the history), through the same estimate (JSON chars ÷ 4); titles of 20–40 characters";
  metrics.push(
    m('edit note: one edit (skip)', noteTokens(one), 'tokens', how),
    m('edit note: five edits (rename, skip, delete, move, add)', noteTokens(five), 'tokens', how),
  );
  return metrics;
}
