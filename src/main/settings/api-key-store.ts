import type { ApiKeyState } from '../../shared/settings';
import { Emitter, type Disposable } from '../common/emitter';

/**
 * Where a key typed in Settings is kept. Electron: a safeStorage-encrypted file in userData;
 * web: memory only (a browser tab is not a keychain).
 */
export interface SecretStore {
  load(): string | null;
  save(key: string | null): void;
}

/** The web shell's store: forgotten when the process exits. */
export class MemorySecretStore implements SecretStore {
  private key: string | null = null;
  load(): string | null {
    return this.key;
  }
  save(key: string | null): void {
    this.key = key;
  }
}

/** A key typed in Settings wins over ANTHROPIC_API_KEY from the environment. */
export class ApiKeyStore {
  private typed: string | null;
  private readonly changed = new Emitter<ApiKeyState>();
  readonly onDidChange = (listener: (state: ApiKeyState) => void): Disposable => this.changed.event(listener);

  constructor(
    private readonly secrets: SecretStore,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.typed = normalise(secrets.load());
  }

  getKey(): string | null {
    return this.typed ?? this.envKey();
  }

  state(): ApiKeyState {
    if (this.typed) return { hasApiKey: true, source: 'settings' };
    if (this.envKey()) return { hasApiKey: true, source: 'env' };
    return { hasApiKey: false, source: 'none' };
  }

  /** Stores (or, with null, forgets) the typed key; the environment key is never touched. */
  set(key: string | null): ApiKeyState {
    const next = normalise(key);
    this.secrets.save(next);
    this.typed = next;
    const state = this.state();
    this.changed.fire(state);
    return state;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private envKey(): string | null {
    return normalise(this.env.ANTHROPIC_API_KEY ?? null);
  }
}

function normalise(key: string | null): string | null {
  const trimmed = key?.trim();
  return trimmed ? trimmed : null;
}
