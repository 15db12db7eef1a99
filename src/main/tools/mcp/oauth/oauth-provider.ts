import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CALLBACK_PATH, SignInRefused } from './loopback-redirect';
import type { McpCredentials, McpTokenVault } from './token-vault';

/** Thrown into the SDK's auth() where only a person can go on: the connection says "Sign in". */
export class SignInNeeded extends Error {
  override name = 'SignInNeeded';
  constructor() {
    super('This server needs a sign-in (Settings, MCP servers, "Sign in").');
  }
}

/** Where a sign-in got to, so a failure is told in the words of its step. */
export type SignInStep = 'metadata' | 'registration' | 'authorization' | 'token';

interface Flight {
  redirectUrl: string;
  state: string;
  /** Written only when the whole sign-in succeeded: a refused one stores nothing. */
  pending: McpCredentials;
  codeVerifier?: string;
  onAuthorizationUrl(url: URL): void;
}

/** Never used to reach a browser: the SDK needs some redirect URL to take the interactive path. */
const NO_SIGN_IN_REDIRECT = `http://127.0.0.1${CALLBACK_PATH}`;

/**
 * The SDK's OAuthClientProvider for one remote server. Outside a sign-in it only uses and
 * refreshes what the vault holds; where the SDK would register a client or send a browser to
 * the authorization page, it throws SignInNeeded instead (a background connect never opens a
 * page, and never registers a client nobody will use). During a sign-in everything goes to a
 * pending record that is written to the vault only once tokens arrived.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private flight: Flight | null = null;
  /** Set when the server asked for what only a sign-in gives; cleared by each connect. */
  signInNeeded = false;
  /** Set once the SDK's auth() ran (the server answered 401); cleared by each connect. */
  authTried = false;
  private currentStep: SignInStep = 'metadata';

  constructor(
    private readonly vault: McpTokenVault,
    private readonly key: string,
    /** A client registered with the server by hand (config `client_id`): no dynamic registration. */
    private readonly configuredClientId?: string,
  ) {}

  get redirectUrl(): string {
    return this.flight?.redirectUrl ?? NO_SIGN_IN_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Waypoint',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app cannot keep a client secret: PKCE protects the code instead.
      token_endpoint_auth_method: 'none',
    };
  }

  /** The credentials as stored (never the pending ones): what Settings' state is made from. */
  stored(): McpCredentials {
    return this.vault.get(this.key);
  }

  /** How far the last auth() got: a failure is told in the words of that step. */
  get step(): SignInStep {
    return this.currentStep;
  }

  /** A fresh connect: nothing asked of the person yet. */
  reset(): void {
    this.signInNeeded = false;
    this.authTried = false;
    this.currentStep = 'metadata';
  }

  beginSignIn(redirectUrl: string, state: string, onAuthorizationUrl: (url: URL) => void): void {
    this.currentStep = 'metadata';
    this.flight = { redirectUrl, state, pending: {}, onAuthorizationUrl };
  }

  /** The code came back: what fails from here is the token exchange. */
  exchanging(): void {
    this.currentStep = 'token';
  }

  /** auth() starts here (the SDK asks for a cached discovery first): nothing cached, discovery runs. */
  discoveryState(): undefined {
    this.authTried = true;
    if (this.currentStep !== 'token' || !this.flight) this.currentStep = 'metadata';
    return undefined;
  }

  /** Stores the sign-in's tokens and client; false when it brought no tokens. */
  commitSignIn(): boolean {
    const pending = this.flight?.pending;
    this.flight = null;
    if (!pending?.tokens) return false;
    this.vault.set(this.key, { tokens: pending.tokens, clientInformation: pending.clientInformation });
    return true;
  }

  /** Ends a sign-in without storing anything of it. */
  abandonSignIn(): void {
    this.flight = null;
  }

  state(): string {
    if (!this.flight) return this.needSignIn();
    return this.flight.state;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (this.currentStep !== 'token') this.currentStep = 'registration';
    if (!this.flight) return;
    // The SDK falls back to guessing endpoints; a sign-in only goes where the server's metadata says.
    if (!state.authorizationServerMetadata) {
      throw new SignInRefused(
        `The server publishes no authorization server metadata (${new URL('/.well-known/oauth-authorization-server', state.authorizationServerUrl).href} was not found), so Waypoint cannot sign in to it. Nothing was stored.`,
      );
    }
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    // With a client at hand the next step is the token endpoint (refresh or code), else registration.
    const known = this.knownClient();
    if (this.currentStep !== 'token') this.currentStep = known ? (this.flight ? 'authorization' : 'token') : 'registration';
    return known ?? (this.flight ? undefined : this.needSignIn());
  }

  private knownClient(): OAuthClientInformationMixed | undefined {
    if (this.configuredClientId) return { client_id: this.configuredClientId };
    // A sign-in registers afresh: the client stored before was registered for another loopback port.
    if (this.flight) return this.flight.pending.clientInformation;
    return this.stored().clientInformation;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.configuredClientId) return;
    if (this.flight) {
      this.flight.pending.clientInformation = info;
      if (this.currentStep === 'registration') this.currentStep = 'authorization';
      return;
    }
    this.vault.set(this.key, { ...this.stored(), clientInformation: info });
  }

  tokens(): OAuthTokens | undefined {
    if (this.flight) return this.flight.pending.tokens;
    return this.stored().tokens;
  }

  /** A silent refresh outside a sign-in is stored at once; the server already revoked the old token. */
  saveTokens(tokens: OAuthTokens): void {
    if (this.flight) {
      this.flight.pending.tokens = tokens;
      return;
    }
    this.vault.set(this.key, { ...this.stored(), tokens, signedOut: undefined });
  }

  redirectToAuthorization(url: URL): void {
    if (!this.flight) this.needSignIn();
    else this.flight.onAuthorizationUrl(url);
  }

  /** Kept in memory for the sign-in only: it is useless once this process's listener is gone. */
  saveCodeVerifier(codeVerifier: string): void {
    if (!this.flight) this.needSignIn();
    else this.flight.codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    const verifier = this.flight?.codeVerifier;
    if (!verifier) throw new SignInRefused('No sign-in is waiting for an answer; press "Sign in" to start one. Nothing was stored.');
    return verifier;
  }

  /** The SDK drops what the server refused (invalid_grant on refresh: the person is signed out). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (this.flight) {
      if (scope === 'all' || scope === 'client') this.flight.pending.clientInformation = undefined;
      if (scope === 'all' || scope === 'tokens') this.flight.pending.tokens = undefined;
      if (scope === 'all' || scope === 'verifier') this.flight.codeVerifier = undefined;
      return;
    }
    const stored = this.stored();
    const next: McpCredentials = { ...stored };
    if (scope === 'all' || scope === 'client') next.clientInformation = undefined;
    if (scope === 'all' || scope === 'tokens') {
      next.tokens = undefined;
      if (stored.tokens) next.signedOut = true;
    }
    if (scope !== 'verifier' && scope !== 'discovery') this.vault.set(this.key, next);
  }

  private needSignIn(): never {
    this.signInNeeded = true;
    throw new SignInNeeded();
  }
}
