import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidClientMetadataError, InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestMcpServer } from './server';

/** The few parts of express's response these handlers use (express ships no types here). */
interface Response {
  redirect(url: string): void;
  status(code: number): Response;
  json(body: unknown): void;
  set(name: string, value: string): Response;
  end(): void;
}

/** What a test can make the authorization server do wrong, each on its own. */
export interface OAuthFaults {
  /** POST /register answers 400 invalid_client_metadata. */
  refuseRegistration?: boolean;
  /** The authorization page sends the browser back with error=access_denied. */
  denyAuthorization?: boolean;
  /** …back with a state of another sign-in. */
  wrongState?: boolean;
  /** …back to another path of the loopback listener. */
  wrongPath?: boolean;
  /** …back to another port (where nothing listens for this sign-in). */
  wrongPort?: number;
  /** The token endpoint answers 400 invalid_grant for an authorization code. */
  refuseCode?: boolean;
  /** The well-known metadata documents are absent (404), not RFC 8414 at all, or send the browser to a non-web address. */
  metadata?: 'missing' | 'malformed' | 'not-a-web-page';
}

export interface RunningOAuthMcpServer {
  /** The MCP endpoint (POST), behind requireBearerAuth. */
  url: string;
  faults: OAuthFaults;
  /** Lifetime of the access tokens issued from now on (default 1 h). */
  accessTokenTtlMs: number;
  /** Every access token issued so far stops working (as if they expired). */
  expireAccessTokens(): void;
  /** Every refresh token issued so far is refused (invalid_grant). */
  revokeRefreshTokens(): void;
  /** Counts, for "no new sign-in" and "refreshed" assertions. */
  counts: { registrations: number; authorizations: number; codeExchanges: number; refreshes: number };
  /** Every access and refresh token issued (the leak checks look for them). */
  issued: string[];
  /** A public client registered by hand for a loopback redirect (any port, RFC 8252), as an admin would. */
  preRegisterClient(clientId: string, redirectUri: string): void;
  close(): Promise<void>;
}

/**
 * An OAuth-protected MCP server for tests, made of the MCP SDK's own server auth: mcpAuthRouter
 * (metadata, dynamic registration, authorize, token) over an in-memory OAuthServerProvider,
 * and requireBearerAuth in front of the test MCP server's tools. Its authorization page
 * approves at once (a redirect with the code), so a plain fetch, or a real browser, completes
 * the sign-in.
 */
export async function startOAuthMcpServer(): Promise<RunningOAuthMcpServer> {
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  const access = new Map<string, AuthInfo & { expiresAtMs: number }>();
  const refresh = new Map<string, { clientId: string; revoked: boolean }>();
  const running: Omit<RunningOAuthMcpServer, 'url' | 'close'> = {
    faults: {},
    accessTokenTtlMs: 3_600_000,
    counts: { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0 },
    issued: [],
    expireAccessTokens: () => {
      for (const info of access.values()) info.expiresAtMs = 0;
    },
    revokeRefreshTokens: () => {
      for (const info of refresh.values()) info.revoked = true;
    },
    preRegisterClient: (clientId, redirectUri) => {
      clients.set(clientId, { client_id: clientId, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    },
  };

  const issue = (clientId: string, resource?: URL): OAuthTokens => {
    const token = `at-test-${randomUUID()}`;
    const refreshToken = `rt-test-${randomUUID()}`;
    const ttl = running.accessTokenTtlMs;
    access.set(token, { token, clientId, scopes: [], expiresAtMs: Date.now() + ttl, expiresAt: Math.floor((Date.now() + ttl) / 1000), resource });
    refresh.set(refreshToken, { clientId, revoked: false });
    running.issued.push(token, refreshToken);
    return { access_token: token, token_type: 'bearer', expires_in: Math.max(1, Math.floor(ttl / 1000)), refresh_token: refreshToken };
  };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (id) => clients.get(id),
    registerClient: (client) => {
      if (running.faults.refuseRegistration) throw new InvalidClientMetadataError('registration is closed on this server');
      running.counts.registrations++;
      const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
      clients.set(full.client_id, full);
      return full;
    },
  };

  const provider: OAuthServerProvider = {
    clientsStore,
    async authorize(client, params, res: Response) {
      running.counts.authorizations++;
      const code = randomUUID();
      codes.set(code, { clientId: client.client_id, params });
      const target = new URL(params.redirectUri);
      const faults = running.faults;
      if (faults.wrongPath) target.pathname = '/somewhere/else';
      if (faults.wrongPort) target.port = String(faults.wrongPort);
      if (faults.denyAuthorization) target.searchParams.set('error', 'access_denied');
      else target.searchParams.set('code', code);
      const state = faults.wrongState ? 'state-of-another-sign-in' : params.state;
      if (state !== undefined) target.searchParams.set('state', state);
      res.redirect(target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const entry = codes.get(code);
      if (!entry) throw new InvalidGrantError('unknown authorization code');
      return entry.params.codeChallenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const entry = codes.get(code);
      if (running.faults.refuseCode || !entry || entry.clientId !== client.client_id) throw new InvalidGrantError('the authorization code was refused');
      codes.delete(code);
      running.counts.codeExchanges++;
      return issue(client.client_id, entry.params.resource);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const entry = refresh.get(refreshToken);
      if (!entry || entry.revoked || entry.clientId !== client.client_id) throw new InvalidGrantError('the refresh token was revoked');
      refresh.delete(refreshToken);
      running.counts.refreshes++;
      return issue(client.client_id);
    },
    async verifyAccessToken(token) {
      const info = access.get(token);
      if (!info || info.expiresAtMs < Date.now()) throw new InvalidTokenError('the access token expired or is unknown');
      return info;
    },
  };

  const app = createMcpExpressApp({ host: '127.0.0.1' });
  let base = new URL('http://127.0.0.1/');
  // Faulty metadata is answered before the router's own documents.
  app.use('/.well-known', (req: { path: string }, res: Response, next: () => void) => {
    const mode = running.faults.metadata;
    if (mode === 'missing') return void res.status(404).json({ error: 'not found' });
    if (mode === 'malformed' && req.path.startsWith('/oauth-authorization-server')) return void res.json({ issuer: 42, authorization_endpoint: 'not a url' });
    if (mode === 'not-a-web-page' && req.path.startsWith('/oauth-authorization-server')) {
      return void res.json({ ...createOAuthMetadata({ provider, issuerUrl: base }), authorization_endpoint: 'ms-settings:privacy' });
    }
    next();
  });
  // The router is made per request: its issuer is the port the server got.
  let router: ReturnType<typeof mcpAuthRouter> | null = null;
  app.use((req: unknown, res: unknown, next: () => void) => router!(req as never, res as never, next));
  const mcpUrl = () => new URL('/mcp', base);
  let bearer: ReturnType<typeof requireBearerAuth> | null = null;
  app.post('/mcp', (req: unknown, res: unknown, next: () => void) => bearer!(req as never, res as never, next), (req: http.IncomingMessage & { body: unknown }, res: http.ServerResponse) => {
    const server = createTestMcpServer({ onCrash: () => res.socket?.destroy() });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res, req.body))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  app.get('/mcp', (_req: unknown, res: Response) => void res.status(405).set('Allow', 'POST').end());

  const httpServer: http.Server = await new Promise((resolve) => {
    const s: http.Server = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = httpServer.address() as AddressInfo;
  base = new URL(`http://127.0.0.1:${port}/`);
  router = mcpAuthRouter({
    provider,
    issuerUrl: base,
    resourceServerUrl: mcpUrl(),
    authorizationOptions: { rateLimit: false },
    clientRegistrationOptions: { rateLimit: false },
    tokenOptions: { rateLimit: false },
    revocationOptions: { rateLimit: false },
  });
  bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl()) });

  return {
    ...running,
    get faults() {
      return running.faults;
    },
    set faults(next: OAuthFaults) {
      running.faults = next;
    },
    get accessTokenTtlMs() {
      return running.accessTokenTtlMs;
    },
    set accessTokenTtlMs(ms: number) {
      running.accessTokenTtlMs = ms;
    },
    url: mcpUrl().href,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
