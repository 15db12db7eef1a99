import { startScriptedServer, type ScriptedServer } from '../../test-support/scripted-api/server';
import type { Scenario } from '../../test-support/scripted-api/scenario';
import { startWebShell, type WebShell, type WebShellOptions } from '../../e2e/support/web-shell';
import type { Scope } from './scoped';

/** A scripted Claude and the built web shell pointed at it, both stopped when `scope` closes. */
export async function startStack(scope: Scope, scenario: Scenario, shellOptions: Partial<WebShellOptions> = {}): Promise<{ scripted: ScriptedServer; shell: WebShell }> {
  const scripted = scope.add(await startScriptedServer({ scenario }), (s) => s.close());
  const shell = scope.add(await startWebShell({ baseURL: scripted.url, ...shellOptions }), (s) => s.stop());
  return { scripted, shell };
}
