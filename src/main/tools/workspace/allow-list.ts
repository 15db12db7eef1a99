/**
 * Command allow-list matching. An entry allows the exact command, or the command followed by
 * more arguments ("npm test" allows "npm test -- --watch=false", not "npm testx"). A command
 * with shell control operators is never allow-listed: "npm test; rm -rf /" must be approved.
 */

// ; & | > < $( ` and line breaks: sequencing, pipes, redirection, substitution.
const SHELL_CONTROL = /[;&|<>`\n\r]|\$\(/;

export function hasShellControl(command: string): boolean {
  return SHELL_CONTROL.test(command);
}

const normalise = (s: string): string => s.trim().replace(/[ \t]+/g, ' ');

export function isAllowListed(command: string, allowList: readonly string[]): boolean {
  if (hasShellControl(command)) return false;
  const cmd = normalise(command);
  if (cmd === '') return false;
  return allowList.some((raw) => {
    const entry = normalise(raw);
    if (entry === '' || hasShellControl(entry)) return false;
    return cmd === entry || cmd.startsWith(`${entry} `);
  });
}
