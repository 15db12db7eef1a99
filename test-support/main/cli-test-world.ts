/**
 * Test support for tests that run the built CLI against a scripted Claude: one scripted server and
 * one temporary root for the whole file, and a fresh data folder and workspace (made, empty) under
 * that root for each test. After the file, every CLI child still running is killed, the server
 * closed and the root removed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted-api/server';
import type { Scenario } from '../scripted-api/scenario';
import { killAllCli } from './cli-harness';

export interface CliTestWorld {
  readonly api: ScriptedServer;
  /** The file's temporary root, which holds every test's folders. */
  readonly root: string;
  /** This test's data folder (not made: the CLI makes it, as for a user). */
  readonly dataDir: string;
  /** This test's workspace, made and empty. */
  readonly workspace: string;
}

/** Registers the hooks; read the fields in a test or in a beforeEach registered after this call. */
export function useCliTestWorld(prefix: string, scenario: Scenario): CliTestWorld {
  let api: ScriptedServer | undefined;
  let root = '';
  let dataDir = '';
  let workspace = '';
  beforeAll(async () => {
    api = await startScriptedServer({ scenario });
    root = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    killAllCli();
    await api?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  let n = 0;
  beforeEach(() => {
    n++;
    dataDir = join(root, `data-${n}`);
    workspace = join(root, `ws-${n}`);
    mkdirSync(workspace);
  });
  return {
    get api() {
      if (!api) throw new Error('the scripted server is not started yet (read it inside a test or hook)');
      return api;
    },
    get root() {
      return root;
    },
    get dataDir() {
      return dataDir;
    },
    get workspace() {
      return workspace;
    },
  };
}
