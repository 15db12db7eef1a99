import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParsedInput, ToolContext, ToolDefinition, ToolOutcome } from '../../src/main/tools/tool';
import { defaultSettings } from '../../src/shared/settings';

/** Test support: a real temp workspace and a tool context. Not used by production code. */

export interface TempWorkspace {
  root: string;
  write(rel: string, content: string | Buffer): string;
  cleanup(): void;
}

export function makeWorkspace(prefix = 'waypoint-ws-'): TempWorkspace {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    root,
    write(rel, content) {
      const abs = path.join(root, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
      return abs;
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export function makeContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { sessionId: 'test-session', signal, settings: defaultSettings() };
}

export function findTool(tools: ToolDefinition[], name: string): ToolDefinition {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

export function expectOk(outcome: ToolOutcome): string {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.kind}: ${outcome.error.message}`);
  return outcome.content;
}

export function expectFail(outcome: ToolOutcome): { kind: string; message: string } {
  if (outcome.ok) throw new Error(`expected failure, got ok: ${outcome.content}`);
  return outcome.error;
}

/** A call's input as the tool parses it (once, in the loop), for tests of one hook; throws on input the tool refuses. */
export function parsedInput(tool: ToolDefinition, raw: unknown): ParsedInput {
  const parsed = tool.parse(raw);
  if (!parsed.ok) throw new Error(`${tool.name} refuses this input: ${parsed.error.message}`);
  return parsed.value;
}
