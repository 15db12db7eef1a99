import { existsSync } from 'node:fs';
import type { Secrets } from '../common/secret-handoff';
import { join } from 'node:path';
import { MemorySecretStore } from '../settings/api-key-store';
import { McpConfigError } from '../tools/mcp/mcp-config-file';
import { installProcessGuards } from '../app/process-guards';
import type { AppServices } from '../app/app-services';
import { dataInWorkspaceNote, formerWebDataDir } from '../app/data-folders';
import { copyFormerWebData, formerWebNote } from '../app/former-web-data';
import { createServices } from '../app/services';
import { parseCliOptions } from './cli-options';
import { rendererDirFor, startWebShell } from './server';

/**
 * The web shell, once started without secrets in its environment (cli.ts). Prints exactly one
 * line with the URL once the server accepts connections (tests parse it); everything else goes
 * to stderr. Never prints the key.
 */
let running: AppServices | null = null;

/** `entryUrl`: web.js's own URL, which the built renderer lies beside (a chunk of it may not). */
export function runWebShell(secrets: Secrets, entryUrl: string): void {
  // Installed first: an error nothing caught is logged and shown, never a silent exit.
  installProcessGuards({ report: (message) => running?.reportProblem?.(message), secrets: () => running?.secrets?.() ?? [] });
  main(secrets, entryUrl).catch((error: unknown) => {
    process.stderr.write(`waypoint: ${error instanceof Error ? error.message : String(error)}\n`);
    // A broken --mcp-config file is a bad option (exit 2), like the ones parseCliOptions catches.
    process.exit(error instanceof McpConfigError ? 2 : 1);
  });
}

async function main(secrets: Secrets, entryUrl: string): Promise<void> {
  const parsed = parseCliOptions(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(`${parsed.text}\n`);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`waypoint: ${parsed.message}\n`);
    process.exitCode = parsed.exitCode ?? 2;
    return;
  }
  const { port, dataDir, workspace, mcpConfigPath, dataDirIsDefault } = parsed.options;
  if (dataDirIsDefault) {
    // The web shell's chats lived in a folder of its own before; brought over once, never moved.
    const former = formerWebDataDir(process.env);
    const copied = await copyFormerWebData(former, dataDir).catch((error: unknown) => {
      process.stderr.write(`waypoint: could not copy the chats of the web shell's former data folder (${former}): ${error instanceof Error ? error.message : String(error)}\n`);
      return null;
    });
    const said = copied && formerWebNote(former, dataDir, copied);
    if (said) process.stderr.write(`${said}\n`);
  }
  // Said once at start, as waypoint run says it: a command Claude runs can reach these folders.
  const note = dataInWorkspaceNote(workspace, dataDir, process.env, mcpConfigPath ?? undefined);
  if (note) process.stderr.write(`${note}\n`);

  const services = await createServices({
    dataDir,
    workspace,
    shell: 'web',
    // The handed-over key (and the rest) live in this object only, never in process.env.
    env: { ...process.env, ...secrets },
    secretStore: new MemorySecretStore(),
    ...(mcpConfigPath ? { mcpConfigPath } : {}),
  });
  running = services;
  const staticDir = rendererDirFor(entryUrl);
  if (!existsSync(join(staticDir, 'index.html'))) {
    process.stderr.write(`waypoint: the renderer is not built (${staticDir} has no index.html); run "npm run build".\n`);
  }
  let shell;
  try {
    shell = await startWebShell({ services, port, staticDir });
  } catch (error) {
    await services.dispose();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`Port ${port} is already in use. Pick another with --port N (0 = any free port).`, { cause: error });
    throw error;
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`waypoint: ${signal} received, shutting down\n`);
    void shell
      .close()
      .then(() => services.dispose())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`waypoint: error while shutting down: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  process.stdout.write(`Waypoint web shell: ${shell.url}\n`);
}
