import { endLikeChild, startWithoutSecrets } from '../common/secret-handoff';

/**
 * `node out/main/web.js`: the web shell. First it makes sure no secret stays in its environment
 * (secret-handoff.ts): with one there, this process only starts itself again without it and
 * waits, so it loads nothing else (the relaunch then costs one small module, not the services).
 */
function fail(error: unknown): void {
  process.stderr.write(`waypoint: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

try {
  const handoff = startWithoutSecrets();
  if (handoff.kind === 'relaunched') handoff.ended.then(endLikeChild, fail);
  else import('./web-shell-main').then(({ runWebShell }) => runWebShell(handoff.secrets, import.meta.url), fail);
} catch (error) {
  fail(error);
}
