import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { SignInRefused } from './loopback-redirect';
import type { SignInStep } from './oauth-provider';

const STEP_WORDS: Record<SignInStep, string> = {
  metadata: "Could not read the server's sign-in metadata",
  registration: "The server's authorization server refused to register Waypoint",
  authorization: 'The sign-in could not start',
  token: 'The server refused to give tokens for the sign-in',
};

/**
 * A failed sign-in in words for Settings. Whatever the SDK or the server said is cut short and
 * every secret Waypoint holds is taken out of it: a server's error page may echo what it got.
 */
export function describeSignInError(error: unknown, step: SignInStep | null, secrets: readonly string[]): string {
  if (error instanceof SignInRefused) return redact(error.message, secrets);
  let detail: string;
  if (error instanceof OAuthError) detail = error.message ? `${error.errorCode}: ${error.message}` : error.errorCode;
  else if (error instanceof Error && error.name === 'ZodError' && 'issues' in error && Array.isArray(error.issues)) {
    const [first] = error.issues as Array<{ path: PropertyKey[]; message: string }>;
    detail = `it is malformed (${first ? `${first.path.map(String).join('.') || 'the document'}: ${first.message}` : 'unreadable'})`;
  } else detail = error instanceof Error ? error.message : String(error);
  if (detail.length > 300) detail = `${detail.slice(0, 300)}…`;
  return redact(`${STEP_WORDS[step ?? 'metadata']}: ${detail}. Nothing was stored.`, secrets);
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('[hidden]');
  return out;
}
