import { readFileSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Start-up loads only what the window needs before the user sends (bench/README, issue 22's
// "UI ready"): the Anthropic SDK is loaded with the first request (agent/model/anthropic-sdk.ts)
// and the MCP client SDK with the first configured server (tools/mcp/mcp-connection.ts). A
// static import of either from anything a shell loads at start puts it back on the start path.

/** Packages the shells must not load at start: the SDK's main entry, the MCP client. */
const LATE = [/^@anthropic-ai\/sdk$/, /^@modelcontextprotocol\/sdk\/client\//];

interface Imported {
  from: string;
  module: string;
}

/** Every file of ours the entries reach, as dependency-cruiser follows imports. */
async function reachedFrom(entries: string[]): Promise<string[]> {
  const result = await cruise(
    entries,
    { doNotFollow: { path: 'node_modules' }, tsConfig: { fileName: 'tsconfig.json' } },
    { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text, not modules');
  return result.output.modules.map((m) => m.source).filter((source) => !source.includes('node_modules') && /\.tsx?$/.test(source));
}

/**
 * The imports of a file that load a module when it runs: not `import type`, not an import whose
 * every name is a type (TypeScript drops both), not `import()` (loaded when reached).
 */
function runTimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypes = !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)));
      if (onlyTypes) continue;
    } else if (statement.isTypeOnly) continue;
    found.push(statement.moduleSpecifier.text);
  }
  return found;
}

async function lateImportsFrom(entries: string[]): Promise<Imported[]> {
  const found: Imported[] = [];
  for (const from of await reachedFrom(entries)) {
    for (const module of runTimeImports(from)) if (LATE.some((late) => late.test(module))) found.push({ from, module });
  }
  return found;
}

describe('what the shells load at start', () => {
  it('the web shell and the desktop app import neither the Anthropic SDK nor the MCP client at start', async () => {
    expect(await lateImportsFrom(['src/main/web/web-entry.ts', 'src/main/electron/main.ts'])).toEqual([]);
  }, 120_000);

  it('the same look finds a static import where there is one (a test of the scripted server imports the SDK)', async () => {
    expect(await lateImportsFrom(['test-support/scripted-api/server.test.ts'])).toContainEqual({ from: 'test-support/scripted-api/server.test.ts', module: '@anthropic-ai/sdk' });
  }, 120_000);
});
