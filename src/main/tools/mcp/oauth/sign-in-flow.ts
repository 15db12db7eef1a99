import { randomBytes } from 'node:crypto';
import { openLoopbackRedirect, SignInRefused } from './loopback-redirect';
import type { McpOAuthProvider } from './oauth-provider';
import { describeSignInError } from './sign-in-words';

export interface SignInRequest {
  url: URL;
  headers?: Record<string, string>;
  provider: McpOAuthProvider;
  connectTimeoutMs: number;
  /** How long the loopback listener waits for the browser (default 5 min). */
  timeoutMs: number;
  /** The authorization page to open: the system browser, or a link in Settings. */
  onAuthorizationUrl(url: string): void;
  /** Every secret held, kept out of the words of a failure. */
  secrets(): string[];
  /** Aborted when the server goes away (Settings changed, app quits): the listener closes. */
  signal: AbortSignal;
}

/**
 * One interactive sign-in, the SDK doing the protocol: a connect that meets 401 runs auth()
 * (metadata discovery, dynamic registration, PKCE) up to the authorization page; the loopback
 * listener waits for the browser to come back; finishAuth(code) exchanges the code; only then
 * are the tokens stored. Rejects with a SignInRefused in words, having stored nothing.
 */
export async function signIn(request: SignInRequest): Promise<void> {
  const { provider } = request;
  const state = randomBytes(24).toString('base64url');
  const redirect = await openLoopbackRedirect(state, request.timeoutMs);
  const cancel = () => redirect.close();
  request.signal.addEventListener('abort', cancel, { once: true });
  if (request.signal.aborted) redirect.close();
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  // Loaded here, like the client: the shells start without the MCP client (start-up-imports.test.ts).
  const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const transport = new StreamableHTTPClientTransport(request.url, {
    authProvider: provider,
    requestInit: request.headers ? { headers: request.headers } : undefined,
  });
  const client = new Client({ name: 'waypoint', version: '0.1.0' });
  let redirected = false;
  provider.beginSignIn(redirect.redirectUrl, state, (url) => {
    // The address comes from the server's metadata: only a web page is opened or shown.
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new SignInRefused(`The server's authorization page is not a web address (${url.protocol}), so Waypoint does not open it. Nothing was stored.`);
    }
    redirected = true;
    request.onAuthorizationUrl(url.href);
  });
  try {
    try {
      await client.connect(transport, { timeout: request.connectTimeoutMs });
      // The server let us in without a sign-in: nothing to store.
      return;
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !redirected) throw error;
    }
    const code = await redirect.code;
    provider.exchanging();
    await transport.finishAuth(code);
    if (!provider.commitSignIn()) throw new SignInRefused('The server answered the sign-in without tokens. Nothing was stored.');
  } catch (error) {
    throw new SignInRefused(describeSignInError(error, provider.step, request.secrets()));
  } finally {
    request.signal.removeEventListener('abort', cancel);
    provider.abandonSignIn();
    redirect.close();
    await client.close().catch(() => undefined);
  }
}
