import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolError, ToolImage, ToolOutcome } from '../tool';

/** Turning MCP tool results and protocol failures into ToolOutcomes. */

const MAX_RESULT_CHARS = 100_000;

interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'audio':
      return `[${block.type}: ${block.mimeType ?? 'unknown type'}, ${Math.floor(((block.data?.length ?? 0) * 3) / 4)} bytes — not shown]`;
    case 'resource':
      return block.resource?.text ?? `[resource ${block.resource?.uri ?? ''} (${block.resource?.mimeType ?? 'binary'})]`;
    case 'resource_link':
      return `[resource link: ${block.uri ?? ''}]`;
    default:
      return `[${block.type} content]`;
  }
}

const cap = (text: string): string =>
  text.length <= MAX_RESULT_CHARS ? text : `${text.slice(0, MAX_RESULT_CHARS)}\n[… ${text.length - MAX_RESULT_CHARS} more characters not shown]`;

const isImage = (block: ContentBlock): boolean => block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string';

/**
 * A tools/call result: text blocks as text, image blocks as images (Claude sees them: the loop
 * checks, scales and stores them, see tool-executor.ts); isError becomes a ToolError.
 */
export function resultToOutcome(result: Record<string, unknown>): ToolOutcome {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const images: ToolImage[] = blocks.filter(isImage).map((b) => ({ mediaType: b.mimeType!, data: b.data! }));
  let text = blocks
    .filter((b) => !isImage(b))
    .map(blockText)
    .join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text === '' && result.toolResult !== undefined) text = JSON.stringify(result.toolResult); // pre-2024-11 servers
  if (result.isError === true) {
    const message = text || 'The MCP tool reported an error without details.';
    // The SDK's servers report argument validation failures as isError results.
    const kind = /input validation error|invalid arguments|-32602/i.test(message) ? 'invalid_parameter' : 'unknown';
    return { ok: false, error: { kind, message: cap(message) } };
  }
  if (images.length) {
    const said = `The tool returned ${images.length === 1 ? 'an image' : `${images.length} images`}.`;
    return { ok: true, content: cap(text || said), images };
  }
  return { ok: true, content: cap(text || '(no output)') };
}

/** A thrown protocol/transport error, classified for the recovery policy. */
export function errorToToolError(error: unknown, server: string, timeoutMs: number): ToolError {
  if (error instanceof McpError) {
    switch (error.code) {
      case ErrorCode.RequestTimeout:
        return { kind: 'timeout', message: `MCP server "${server}" did not answer within ${timeoutMs} ms.` };
      case ErrorCode.ConnectionClosed:
        return { kind: 'unavailable', message: `MCP server "${server}" closed the connection (it may have crashed): ${error.message}` };
      case ErrorCode.InvalidParams:
      case ErrorCode.MethodNotFound:
        return { kind: 'invalid_parameter', message: `MCP server "${server}" rejected the call: ${error.message}` };
      default:
        return { kind: 'unknown', message: `MCP server "${server}" failed: ${error.message}` };
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/ECONNREFUSED|ECONNRESET|fetch failed|socket|EPIPE|not connected/i.test(message)) {
    return { kind: 'unavailable', message: `MCP server "${server}" is unreachable: ${message}` };
  }
  return { kind: 'unknown', message: `MCP server "${server}" failed: ${message}` };
}
