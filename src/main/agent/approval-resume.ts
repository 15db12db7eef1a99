import type { ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ApprovalDecision, ApprovalRequest } from '../../shared/prompts';
import type { Settings } from '../../shared/settings';
import type { ChatSession } from '../sessions/chat-session';
import { callTool } from '../tools/define-tool';
import type { ToolDefinition } from '../tools/tool';
import { denialMessage } from './approval-step';
import type { ResumablePrompt } from './prompt-resume';

/**
 * An approval answered after a restart (the request came back with the session log): Approve runs
 * the held tool call now, Deny answers it as a live run would. `tools` are the ones the chat's run
 * would offer (planning + workspace + MCP).
 */
export function approvalAfterRestart(
  tools: ToolDefinition[],
  settings: Settings,
  remember: (request: ApprovalRequest, decision: ApprovalDecision) => Promise<void>,
): ResumablePrompt<ApprovalRequest, ApprovalDecision> {
  return {
    pending: (session) => session.pendingApproval,
    canResume: (request, open) => open.includes(request.toolUseId),
    async settle({ session, request, answer, publish }) {
      const sessionId = session.summary.id;
      const block = findToolUse(session, request.toolUseId);
      const card = session.toolCall(request.toolUseId);
      publish({ type: 'approval_resolved', sessionId, requestId: request.id, decision: answer === 'deny' ? 'denied' : 'approved' });
      await remember(request, answer);

      const tool = tools.find((t) => t.name === request.toolName);
      if (answer === 'deny') {
        if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'denied', result: denialMessage(request.toolName) } });
        return { content: denialMessage(request.toolName), isError: true, halt: false };
      }
      if (!tool || !block) {
        const text = `Tool "${request.toolName}" is not available any more (its MCP server or folder may be gone), so it did not run.`;
        if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'error', result: text } });
        return { content: text, isError: true, halt: false };
      }
      if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'running' } });
      const started = performance.now();
      const outcome = await callTool(tool, block.input, { sessionId, signal: new AbortController().signal, settings })
        .catch((error: unknown) => ({ ok: false as const, error: { kind: 'unknown' as const, message: `Tool "${tool.name}" failed unexpectedly: ${(error as Error).message}` } }));
      const text = outcome.ok ? outcome.content : outcome.error.message;
      if (card) {
        publish({ type: 'transcript_item', sessionId, item: { ...card, status: outcome.ok ? 'done' : 'error', result: text, durationMs: Math.round(performance.now() - started) } });
      }
      return { content: text, isError: !outcome.ok, halt: false };
    },
  };
}

function findToolUse(session: ChatSession, toolUseId: string): ToolUseBlockParam | undefined {
  const assistant = session.history.findLast((m) => m.role === 'assistant');
  if (!assistant || typeof assistant.content === 'string') return undefined;
  return assistant.content.find((b): b is ToolUseBlockParam => b.type === 'tool_use' && b.id === toolUseId);
}
