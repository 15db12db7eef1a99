import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startScriptedServer, type ScriptedServer } from '../../test-support/scripted-api/server';
import type { Scenario } from '../../test-support/scripted-api/scenario';
import { startWebShell, type WebShell, type WebShellOptions } from '../../e2e/support/web-shell';
import type { Scope } from './scoped';

/**
 * WAYPOINT_BENCH_MAIN_PROFILE=dir: every web shell a bench starts here writes main's CPU profile
 * there when it stops (bench/lib/cpu-profile-probe.mjs, preloaded).
 */
export function mainProfileEnv(): Record<string, string> {
  const dir = process.env.WAYPOINT_BENCH_MAIN_PROFILE;
  if (!dir) return {};
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(resolve('bench/lib/cpu-profile-probe.mjs')).href}`.trim(), WAYPOINT_BENCH_MAIN_PROFILE: resolve(dir) };
}

/** A scripted Claude and the built web shell pointed at it, both stopped when `scope` closes. */
export async function startStack(scope: Scope, scenario: Scenario, shellOptions: Partial<WebShellOptions> = {}): Promise<{ scripted: ScriptedServer; shell: WebShell }> {
  const scripted = scope.add(await startScriptedServer({ scenario }), (s) => s.close());
  const shell = scope.add(await startWebShell({ baseURL: scripted.url, ...shellOptions, extraEnv: { ...mainProfileEnv(), ...shellOptions.extraEnv } }), (s) => s.stop());
  return { scripted, shell };
}
