import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestMcpServer } from './server';

export interface RunningHttpMcpServer {
  url: string;
  /** Requests seen, with their headers, so tests can check configured headers arrive. */
  requests: Array<{ method: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/**
 * The test MCP server over streamable HTTP on 127.0.0.1 (stateless: a fresh server and
 * transport per request, as the SDK recommends for stateless mode). In-process for tests.
 */
export async function startHttpMcpServer(): Promise<RunningHttpMcpServer> {
  const requests: RunningHttpMcpServer['requests'] = [];
  const httpServer = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', headers: req.headers });
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const server = createTestMcpServer({ onCrash: () => res.socket?.destroy() });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
