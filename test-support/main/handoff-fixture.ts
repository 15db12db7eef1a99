/**
 * A stand-in entry point for secret-handoff tests, run with `node --import tsx`: it starts the way
 * web.js and cli.js do, then does what argv[2] says, so a test sees what the started process
 * has (its environment as /proc shows it, the secrets in memory) and how its launcher ends.
 */
import { readFileSync } from 'node:fs';
import { endLikeChild, startWithoutSecrets } from '../../src/main/common/secret-handoff';

function report(extra: Record<string, unknown> = {}): void {
  const environ = process.platform === 'linux' ? readFileSync('/proc/self/environ', 'utf8').split('\0').filter(Boolean) : [];
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ppid: process.ppid, environ, ...extra })}\n`);
}

let handoff;
try {
  handoff = startWithoutSecrets();
} catch (error) {
  process.stderr.write(`fixture: ${(error as Error).message}\n`);
  process.exit(9);
}
if (handoff.kind === 'relaunched') {
  handoff.ended.then(endLikeChild, (error: unknown) => {
    process.stderr.write(`fixture: ${(error as Error).message}\n`);
    process.exit(9);
  });
} else {
  const [mode = 'report', arg = ''] = process.argv.slice(2);
  const secrets = handoff.secrets;
  if (mode === 'report') report({ secrets });
  else if (mode === 'exit') {
    report();
    process.exitCode = Number(arg);
  } else if (mode === 'signal') process.kill(process.pid, arg as NodeJS.Signals);
  else if (mode === 'echo') process.stdin.pipe(process.stdout);
  else if (mode === 'interrupts') {
    // Counts the SIGINTs that reach it, says so, and leaves when the test closes stdin.
    let count = 0;
    process.on('SIGINT', () => process.stdout.write(`SIGINT ${++count}\n`));
    report();
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));
  } else if (mode === 'wait') {
    report();
    setInterval(() => {}, 1000);
  }
}
