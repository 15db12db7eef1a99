import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Emitter } from '../../common/emitter';
import { mcpServerEnv } from '../child-env';
import { checkCommand, isolate, processIsolation } from '../pid-isolation';
import type { McpServerConfig } from '../../../shared/settings';
import type { ToolOutcome } from '../tool';
import { errorToToolError, resultToOutcome } from './mcp-result';
import type { McpServerState, McpSignInOptions, McpTransportKind } from './mcp-state';
import { StderrTail } from './stderr-tail';
import { McpOAuthProvider } from './oauth/oauth-provider';
import { signIn } from './oauth/sign-in-flow';
import { describeSignInError } from './oauth/sign-in-words';
import { credentialsKey } from './oauth/token-vault';


/**
 * One configured MCP server: its transport, client, tool list and state. A crash or a failed
 * start becomes the `failed` state (with stderr); nothing here throws to the caller.
 */
export class McpConnection {
  private client: Client | null = null;
  private generation = 0;
  private readonly stderr: StderrTail;
  private serverTools: Tool[] = [];
  private current: McpServerState;
  private readonly changed = new Emitter<McpServerState>();
  readonly onDidChange = this.changed.event;
  readonly kind: McpTransportKind;
  /** Remote servers only: the SDK's OAuth side, on the vault's tokens for this name and URL. */
  private readonly auth: McpOAuthProvider | null = null;
  private signingIn: Promise<void> | null = null;
  /** Ends the sign-in under way: a (re)start or dispose takes over from it. */
  private signInCancel: AbortController | null = null;
  /** The page of the sign-in under way, shown again if "Sign in" is pressed again. */
  private signInPage: string | null = null;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly timeouts: { connectMs: number; callMs: number },
    stderrTailChars: number,
    private readonly signIns?: McpSignInOptions,
  ) {
    this.kind = 'command' in config ? 'stdio' : 'http';
    this.stderr = new StderrTail(stderrTailChars);
    this.current = { name, transport: this.kind, status: 'starting' };
    if ('url' in config && signIns) this.auth = new McpOAuthProvider(signIns.vault, credentialsKey(name, config.url), config.client_id);
  }

  get state(): McpServerState {
    return this.current;
  }

  get tools(): readonly Tool[] {
    return this.current.status === 'ready' ? this.serverTools : [];
  }

  get trusted(): boolean {
    return this.config.trusted === true;
  }

  private set(state: McpServerState): void {
    this.current = state;
    this.changed.fire(state);
  }

  private fail(error: string): void {
    this.serverTools = [];
    this.set({ name: this.name, transport: this.kind, status: 'failed', error, stderrTail: this.stderr.value });
  }

  /** Waiting for a person: not retried until they press "Sign in" (or "Restart"). */
  private needSignIn(extra: { signInUrl?: string; error?: string } = {}): void {
    this.serverTools = [];
    const stored = this.auth?.stored() ?? {};
    const signedOut = !!(stored.tokens || stored.signedOut);
    this.set({ name: this.name, transport: this.kind, status: 'sign_in', signedOut, ...extra });
  }

  private async createTransport(): Promise<Transport> {
    if ('command' in this.config) {
      // In a PID namespace of its own where bubblewrap can make one, like run_command (pid-isolation.ts).
      const isolation = await processIsolation();
      // Allow-listed like run_command's, plus exactly what the server's config sets.
      const env = mcpServerEnv(process.env, this.config.env);
      checkCommand(isolation, this.config.command, env);
      const launch = isolate(isolation, { command: this.config.command, args: this.config.args ?? [] });
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const transport = new StdioClientTransport({
        command: launch.command,
        args: launch.args,
        env,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk));
      return transport;
    }
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(this.config.url), {
      requestInit: this.config.headers ? { headers: this.config.headers } : undefined,
      ...(this.auth ? { authProvider: this.auth } : {}),
    });
  }

  /** Connect (or reconnect), list tools, and settle in `ready` or `failed`. Never rejects. */
  async start(): Promise<void> {
    this.signInCancel?.abort();
    this.signInCancel = null;
    await this.close();
    const generation = ++this.generation;
    this.stderr.clear();
    this.auth?.reset();
    this.set({ name: this.name, transport: this.kind, status: 'starting' });
    let client: Client | null = null;
    try {
      // Loaded with the first server, not at start-up: the client SDK (and its JSON Schema
      // validator) is a large part of main's module loading, and most starts configure no server.
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      if (generation !== this.generation) return; // closed or started again meanwhile
      client = new Client({ name: 'waypoint', version: '0.1.0' });
      const connecting = client;
      const transport = await this.createTransport();
      this.client = connecting;
      // Fires when the process exits or the stream ends; ignored once we closed it ourselves.
      connecting.onclose = () => {
        // A connect the server turned away for want of a sign-in is not a server that stopped.
        if (generation === this.generation && this.current.status !== 'failed' && !this.auth?.signInNeeded) {
          this.client = null;
          this.fail('The server stopped (its process exited or the connection closed).');
        }
      };
      await connecting.connect(transport, { timeout: this.timeouts.connectMs });
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await connecting.listTools(cursor ? { cursor } : undefined, { timeout: this.timeouts.connectMs });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      if (generation !== this.generation) return;
      this.serverTools = tools;
      this.set({ name: this.name, transport: this.kind, status: 'ready', toolCount: tools.length, tools: tools.map((t) => t.name) });
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.auth?.signInNeeded) {
        await this.closeQuietly(client);
        this.needSignIn();
        return;
      }
      if (this.auth?.authTried) {
        // The server wants OAuth and its metadata or token endpoint failed: said in sign-in words.
        await this.closeQuietly(client);
        this.needSignIn({ error: describeSignInError(error, this.auth.step, this.signIns?.vault.secrets() ?? []) });
        return;
      }
      // Let the crashed process's last words arrive before we snapshot stderr.
      await new Promise((resolve) => setTimeout(resolve, 50));
      this.fail(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
      await this.closeQuietly(client);
    }
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
    const client = this.client;
    if (!client || this.current.status !== 'ready') {
      if (this.current.status === 'sign_in') {
        const why = this.current.signedOut ? 'is signed out' : 'needs a sign-in';
        return { ok: false, error: { kind: 'unavailable', message: `MCP server "${this.name}" ${why}. The user can sign in in Settings.` } };
      }
      const why = this.current.status === 'failed' ? `failed: ${this.current.error}` : this.current.status;
      return { ok: false, error: { kind: 'unavailable', message: `MCP server "${this.name}" is not running (${why}). The user can restart it in Settings.` } };
    }
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.timeouts.callMs, signal });
      return resultToOutcome(result);
    } catch (error) {
      // The SDK reports an abort as a RequestTimeout McpError; the signal tells the truth.
      if (signal.aborted) return { ok: false, error: { kind: 'unknown', message: `Call to ${tool} on MCP server "${this.name}" stopped by the user.` } };
      if (this.auth?.signInNeeded) {
        // Its refresh token was refused mid-session: signed out until the person signs in again.
        await this.close();
        this.needSignIn();
        return { ok: false, error: { kind: 'unavailable', message: `MCP server "${this.name}" is signed out. The user can sign in again in Settings.` } };
      }
      return { ok: false, error: errorToToolError(error, this.name, this.timeouts.callMs) };
    }
  }

  /**
   * Starts a sign-in (remote servers only) and resolves at once; the state carries the page to
   * open, then the outcome: reconnected with its tools, or the reason nothing was stored.
   */
  signIn(): boolean {
    if (!this.auth || !this.signIns || !('url' in this.config)) return false;
    // A provider of its own: a restart meanwhile connects with the stored tokens, never with this sign-in's pending ones.
    const auth = new McpOAuthProvider(this.signIns.vault, credentialsKey(this.name, this.config.url), this.config.client_id);
    if (this.signingIn) {
      // Still waiting for the browser: the same page again (a second listener would race the first).
      if (this.signInPage) this.needSignIn({ signInUrl: this.signInPage });
      return true;
    }
    const cancel = new AbortController();
    this.signInCancel = cancel;
    const config = this.config;
    const run = async () => {
      await this.close();
      const generation = this.generation;
      this.needSignIn();
      try {
        await signIn({
          url: new URL(config.url),
          headers: config.headers,
          provider: auth,
          connectTimeoutMs: this.timeouts.connectMs,
          timeoutMs: this.signIns?.timeoutMs ?? 5 * 60_000,
          secrets: () => this.signIns?.vault.secrets() ?? [],
          signal: cancel.signal,
          onAuthorizationUrl: (url) => {
            if (cancel.signal.aborted) return;
            this.signInPage = url;
            if (generation === this.generation) this.needSignIn({ signInUrl: url });
            this.signIns?.openSignInPage?.(url);
          },
        });
      } catch (error) {
        if (generation === this.generation) this.needSignIn({ error: (error as Error).message });
        return;
      }
      if (generation !== this.generation) return;
      this.signInCancel = null;
      await this.start();
    };
    this.signingIn = run().finally(() => {
      this.signingIn = null;
      this.signInPage = null;
      if (this.signInCancel === cancel) this.signInCancel = null;
    });
    return true;
  }

  /** Resolves when the sign-in under way (if any) has ended (tests, dispose). */
  whenSignedIn(): Promise<void> {
    return this.signingIn ?? Promise.resolve();
  }

  private async closeQuietly(client: Client | null): Promise<void> {
    try {
      await client?.close();
    } catch {
      // Already gone.
    }
  }

  /** End the connection (and the child process for stdio). */
  async close(): Promise<void> {
    this.generation++;
    const client = this.client;
    this.client = null;
    await this.closeQuietly(client);
  }

  async dispose(): Promise<void> {
    this.signInCancel?.abort();
    await this.close();
    this.changed.dispose();
  }
}
