/**
 * Which environment variables hold a secret. One rule for the two places that act on it: the
 * environment of what Waypoint starts (tools/child-env.ts) and the environment Waypoint itself
 * keeps after start-up (secret-handoff.ts, bin/waypoint-launch, which repeats the pattern in sh).
 */

/** Names that look like they hold a credential. */
const SECRET_LOOKING = /KEY|TOKEN|SECRET|PASS(WORD|WD|PHRASE)?|CRED|AUTH|COOKIE|SESSION|PRIVATE|CERT|SIGNATURE|^ANTHROPIC_|^CLAUDE_/i;

export function looksSecret(name: string): boolean {
  return SECRET_LOOKING.test(name);
}

/**
 * Names the pattern catches that are addresses or settings, not credentials, which the process
 * itself needs in its environment from the start: the API's base URL, the certificate authorities
 * Node reads when it starts (a company proxy's CA), and what Electron reads at start-up to reach
 * the display, the session bus and the desktop's keychain. They still never
 * reach a command or an MCP server (child-env.ts allow-lists), and what Waypoint starts on Linux
 * cannot see Waypoint's environment at all (sandbox/pid-isolation.ts).
 */
const NEEDED_AT_START = /^(ANTHROPIC_BASE_URL|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|XAUTHORITY|DBUS_SESSION_BUS_ADDRESS|DESKTOP_SESSION|XDG_SESSION_[A-Z_]+|KDE_SESSION_[A-Z_]+)$/;

/** A variable Waypoint moves out of its own environment at start-up and keeps in memory only. */
export function isHandedOver(name: string): boolean {
  return looksSecret(name) && !NEEDED_AT_START.test(name);
}
