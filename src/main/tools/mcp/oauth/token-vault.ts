import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Where the vault's one encrypted blob lives: the same kind of store as the API key's
 * (settings/api-key-store.ts: safeStorage-encrypted file in the desktop app, memory in the web
 * shell and `waypoint run`). Declared here so the tools floor imports no service.
 */
export interface TokenSecretStore {
  load(): string | null;
  save(value: string | null): void;
}

/** What one server's sign-in keeps: never sent to a window, a log or a child process. */
export interface McpCredentials {
  tokens?: OAuthTokens;
  clientInformation?: OAuthClientInformationMixed;
  /** The refresh token was refused (revoked, expired): Settings says "Signed out". */
  signedOut?: boolean;
}

/** A changed URL is another server as far as its tokens go: it needs a sign-in of its own. */
export function credentialsKey(name: string, url: string): string {
  return JSON.stringify([name, url]);
}

/**
 * The OAuth credentials of every remote MCP server, keyed per server (name + URL), held in
 * memory and written through to one secret store as JSON. A blob that does not parse is
 * dropped: the servers ask for a sign-in again rather than start with half a credential.
 */
export class McpTokenVault {
  private readonly entries: Map<string, McpCredentials>;

  constructor(private readonly store: TokenSecretStore) {
    this.entries = new Map(parseBlob(store.load()));
  }

  get(key: string): McpCredentials {
    return this.entries.get(key) ?? {};
  }

  /** Replaces one server's credentials (an empty record forgets it) and saves the whole vault. */
  set(key: string, credentials: McpCredentials): void {
    const kept = Object.fromEntries(Object.entries(credentials).filter(([, value]) => value !== undefined && value !== false));
    if (Object.keys(kept).length === 0) this.entries.delete(key);
    else this.entries.set(key, kept);
    this.store.save(this.entries.size === 0 ? null : JSON.stringify(Object.fromEntries(this.entries)));
  }

  /** Every token and client secret held, for the checks that none of them leaks. */
  secrets(): string[] {
    const values: string[] = [];
    for (const { tokens, clientInformation } of this.entries.values()) {
      if (tokens?.access_token) values.push(tokens.access_token);
      if (tokens?.refresh_token) values.push(tokens.refresh_token);
      if (clientInformation?.client_secret) values.push(clientInformation.client_secret);
    }
    return values;
  }
}

function parseBlob(blob: string | null): Array<[string, McpCredentials]> {
  if (!blob) return [];
  try {
    const parsed: unknown = JSON.parse(blob);
    if (typeof parsed !== 'object' || parsed === null) return [];
    return Object.entries(parsed as Record<string, McpCredentials>).filter(([, value]) => typeof value === 'object' && value !== null);
  } catch {
    return [];
  }
}
