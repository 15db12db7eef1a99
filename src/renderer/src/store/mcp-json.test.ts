import { describe, expect, it } from 'vitest';
import { mcpJsonOf, parseMcpJson } from './mcp-json';

describe('the MCP servers editor', () => {
  it("reads Claude Desktop's format, stdio and HTTP, and round-trips the current servers", () => {
    const text = '{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "server-fs"], "env": {"A": "1"}}, "web": {"url": "https://example.com/mcp", "trusted": true}}}';
    const parsed = parseMcpJson(text);
    expect(parsed).toEqual({
      ok: true,
      servers: { fs: { command: 'npx', args: ['-y', 'server-fs'], env: { A: '1' } }, web: { url: 'https://example.com/mcp', trusted: true } },
    });
    if (parsed.ok) expect(parseMcpJson(mcpJsonOf(parsed.servers))).toEqual(parsed);
    expect(parseMcpJson('   ')).toEqual({ ok: true, servers: {} });
  });

  it.each([
    ['{"mcpServers": {', /the JSON is not valid/],
    ['[]', /expected \{"mcpServers"/],
    ['{"servers": {}}', /expected \{"mcpServers"/],
    ['{"mcpServers": {"x": {"args": []}}}', /"x" should look like \{"command"/],
    ['{"mcpServers": {"x": {"url": "not a url"}}}', /"x" should look like \{"url"/],
    ['{"mcpServers": {"": {"command": "a"}}}', /empty name/],
    ['{"mcpServers": {"my server": {"command": "a"}}}', /"my server" cannot name an MCP server: use letters, digits, _ and -/],
    ['{"mcpServers": {"x": {"url": "ftp://example.com/mcp"}}}', /"x" should look like \{"url".*http:\/\/ or https:\/\//],
    ['{"mcpServers": {"x": {"command": " "}}}', /"x" should look like \{"command".*Enter the command/],
  ])('refuses %s with a clear message', (text, message) => {
    const parsed = parseMcpJson(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toMatch(message);
      expect(parsed.message).toContain('Nothing was saved.');
    }
  });
});
