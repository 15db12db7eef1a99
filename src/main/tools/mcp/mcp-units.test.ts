import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { errorToToolError, resultToOutcome } from './mcp-result';
import { API_TOOL_NAME, mcpToolName } from './tool-name';

describe('mcpToolName', () => {
  it('joins and sanitises to the API pattern', () => {
    expect(mcpToolName('github', 'create_issue', new Set())).toBe('github__create_issue');
    expect(mcpToolName('my server', 'do.thing/now', new Set())).toBe('my_server__do_thing_now');
    const long = mcpToolName('s'.repeat(50), 't'.repeat(50), new Set());
    expect(long).toHaveLength(64);
    expect(long).toMatch(API_TOOL_NAME);
  });

  it('keeps names unique after sanitising', () => {
    const taken = new Set(['a__b_c']);
    expect(mcpToolName('a', 'b.c', taken)).toBe('a__b_c_2');
    taken.add('a__b_c_2');
    expect(mcpToolName('a', 'b c', taken)).toBe('a__b_c_3');
    const longTaken = new Set([mcpToolName('x'.repeat(40), 'y'.repeat(40), new Set())]);
    const second = mcpToolName('x'.repeat(40), 'y'.repeat(40), longTaken);
    expect(second).toMatch(API_TOOL_NAME);
    expect(second.endsWith('_2')).toBe(true);
  });
});

describe('resultToOutcome', () => {
  it('joins text blocks, describes other non-text ones, and passes images on as images', () => {
    const outcome = resultToOutcome({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource_link', uri: 'file:///x' },
      ],
    });
    expect(outcome).toEqual({ ok: true, content: 'hello\n[resource link: file:///x]', images: [{ mediaType: 'image/png', data: 'AAAA' }] });
    expect(resultToOutcome({ content: [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }] })).toEqual({
      ok: true,
      content: 'The tool returned an image.',
      images: [{ mediaType: 'image/png', data: 'AAAA' }],
    });
  });

  it('uses structuredContent when there is no content, and says when there is nothing', () => {
    expect(resultToOutcome({ content: [], structuredContent: { n: 1 } })).toEqual({ ok: true, content: '{"n":1}' });
    expect(resultToOutcome({ content: [] })).toEqual({ ok: true, content: '(no output)' });
  });

  it('maps isError to a ToolError, validation failures to invalid_parameter', () => {
    expect(resultToOutcome({ isError: true, content: [{ type: 'text', text: 'boom' }] })).toEqual({ ok: false, error: { kind: 'unknown', message: 'boom' } });
    const validation = resultToOutcome({ isError: true, content: [{ type: 'text', text: 'MCP error -32602: Input validation error: a' }] });
    expect(validation.ok ? '' : validation.error.kind).toBe('invalid_parameter');
  });
});

describe('errorToToolError', () => {
  it.each([
    [new McpError(ErrorCode.RequestTimeout, 'Request timed out'), 'timeout'],
    [new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), 'unavailable'],
    [new McpError(ErrorCode.InvalidParams, 'bad'), 'invalid_parameter'],
    [new McpError(ErrorCode.InternalError, 'oops'), 'unknown'],
    [new Error('fetch failed'), 'unavailable'],
    [new Error('weird'), 'unknown'],
  ])('%s → %s', (error, kind) => {
    expect(errorToToolError(error, 'srv', 1000).kind).toBe(kind);
  });
});
