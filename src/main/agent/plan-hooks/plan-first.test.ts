import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import { defaultSettings } from '../../../shared/settings';
import { createAskUserTool } from '../../tools/ask-user';
import { z } from 'zod';
import { defineTool } from '../../tools/define-tool';
import type { ToolDefinition } from '../../tools/tool';
import { heldForApproval, planFirstRefusal } from './plan-first';

const tool = (name: string, group: ToolDefinition['group'], readOnly?: boolean): ToolDefinition =>
  defineTool({
    name,
    description: name,
    input: z.object({}),
    group,
    ...(readOnly ? { readOnly } : {}),
    summarize: () => name,
    describeDryRun: () => name,
    needsApproval: () => false,
    execute: async () => ({ ok: true, content: '' }),
  });
const plan = (review?: Plan['review']): Plan => ({
  id: 'p',
  dialect: 'structured',
  goal: 'g',
  status: 'active',
  steps: [],
  version: 3,
  createdAt: '',
  updatedAt: '',
  summary: { total: 0, completed: 0, in_progress: 0, pending: 0, failed: 0, skipped: 0, percent: 0 },
  ...(review ? { review } : {}),
});

describe('plan first at the tool layer', () => {
  const on = { ...defaultSettings(), planFirst: true };

  it('holds changing tools back while a plan-first chat has no approved plan', () => {
    expect(heldForApproval(on, null)).toBe(true);
    expect(heldForApproval(on, plan({ state: 'proposed' }))).toBe(true);
    expect(heldForApproval(on, plan({ state: 'approved', version: 3, at: '' }))).toBe(false);
    // Its approval covers that plan only: once it is finished or cancelled, new work is proposed again.
    for (const status of ['completed', 'partial', 'failed', 'cancelled'] as const) {
      expect(heldForApproval(defaultSettings(), { ...plan({ state: 'approved', version: 3, at: '' }), status })).toBe(true);
    }
    // A plan made without plan first keeps its chat out of it (like "Planning style").
    expect(heldForApproval(on, plan())).toBe(false);
    expect(heldForApproval(defaultSettings(), null)).toBe(false);
    // A proposal made in plan first stays one when the setting is turned off later.
    expect(heldForApproval(defaultSettings(), plan({ state: 'proposed' }))).toBe(true);
    // Plan first needs the planning tools: without agentic mode it does nothing.
    expect(heldForApproval({ ...on, agenticMode: false }, null)).toBe(false);
  });

  it('refuses writes, commands and MCP tools not marked read-only; lets reading and planning tools through', () => {
    const proposed = plan({ state: 'proposed' });
    for (const t of [tool('write_file', 'workspace'), tool('edit_file', 'workspace'), tool('run_command', 'workspace'), tool('srv__delete', 'mcp')]) {
      expect(planFirstRefusal(t, true, proposed)).toBe(
        `Not run: this chat is in plan-first mode and the plan (version 3) awaits the user's approval. Until the user approves a proposed plan, only reading tools and planning calls that shape the proposal work: ${t.name} changes things. Propose the plan (or revise it), then end your turn.`,
      );
      expect(planFirstRefusal(t, false, proposed)).toBeNull();
    }
    // Claude may ask the user while it explores: asking changes nothing.
    for (const t of [tool('read_file', 'workspace', true), tool('srv__search', 'mcp', true), tool('create_plan', 'planning'), createAskUserTool()]) {
      expect(planFirstRefusal(t, true, proposed)).toBeNull();
    }
    expect(planFirstRefusal(tool('write_file', 'workspace'), true, null)).toMatch(/^Not run: this chat is in plan-first mode and the plan awaits the user's approval\./);
    expect(planFirstRefusal(tool('write_file', 'workspace'), true, { ...proposed, status: 'completed' })).toMatch(
      /^Not run: this chat is in plan-first mode and the last plan is completed: a new plan awaits the user's approval\./,
    );
  });
});
