import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PlanningServices } from '../../app/planning-services';
import type { ToolDefinition } from '../../tools/tool';
import { oneLineName } from '../terminal-text';
import { ClientChat } from './client-chat';
import { callTool } from '../../tools/define-tool';
import { UserEditNotes } from './user-edit-notes';

export const SERVER_NAME = 'waypoint-planning';

/** A client that sends no clientInfo still gets a chat, under this name. */
const UNNAMED_CLIENT = 'MCP client';
/**
 * The longest client name kept. clientInfo.name is whatever the client sent (a megabyte, escapes,
 * bidi overrides); it becomes the chat's title, its origin and the lock's holder, so it is cut to
 * one clean line. The same raw name always gives the same kept name, so a restarted client still
 * finds its chat.
 */
export const MAX_CLIENT_NAME = 80;

/**
 * Waypoint's planning tools as an MCP server: exactly one planning style's tools, with the names,
 * input schemas (derived from the dialect's zod schemas, as Claude sees them in the app) and
 * result texts of the seeds. Each call runs the same tool the app's loop runs, on the client's
 * chat; a call the plan's rules refuse is a tool result with isError and the rule's message, the
 * plan unchanged. What the user changed in Waypoint since the last call ends the next result.
 */
export function createPlanningServer(services: PlanningServices, version: string, say: (message: string) => void): { server: Server; dispose(): void } {
  const server = new Server({ name: SERVER_NAME, version }, { capabilities: { tools: {} }, instructions: instructionsFor(services) });
  const tools: ToolDefinition[] = services.plans.toolsFor(services.style);
  let named: { raw: string; kept: string } | null = null;
  const clientName = () => {
    const raw = server.getClientVersion()?.name ?? '';
    if (named?.raw !== raw) named = { raw, kept: oneLineName(raw, MAX_CLIENT_NAME) || UNNAMED_CLIENT };
    return named.kept;
  };
  const chat = new ClientChat(services, clientName, say);
  const notes = new UserEditNotes(services.plans.onPlanUpdated, () => chat.current);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) {
      return textResult(`Unknown tool "${request.params.name}". This server offers the ${services.style} planning tools: ${tools.map((t) => t.name).join(', ')}.`, true);
    }
    // The client is known now: the chat's lock names it ("being written by waypoint mcp (claude-code)").
    services.sessions.renameHolder(`waypoint mcp (${clientName()})`);
    const sessionId = chat.ensure();
    const outcome = await callTool(tool, request.params.arguments, { sessionId, signal: extra.signal, settings: services.settings() });
    const note = notes.take();
    const text = outcome.ok ? outcome.content : outcome.error.message;
    return textResult(note ? `${text}\n\n${note}` : text, !outcome.ok);
  });

  return {
    server,
    dispose() {
      notes.dispose();
      chat.dispose();
    },
  };
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

/** What the client's model is told about this server: the dialect's own planning guidance. */
function instructionsFor(services: PlanningServices): string {
  return `Waypoint keeps your plan and shows it live in its window (a chat named after you). ${services.plans.guidance(services.style)}`;
}
