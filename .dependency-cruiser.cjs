/**
 * The architecture of Waypoint as rules (docs/architecture.md, "Floors"). `npm run lint` runs them; any violation
 * fails it. Floors of src/main, from the ground up:
 *
 *   common              what everything shares (events, errors, the prompt gate)
 *   tools               the tool interface, its registry, workspace and MCP tools
 *   plan · recovery · chats · settings · attachments    services on the tool interface; they never import each other
 *   store               the chats' logs on disk: stands on chats (the state of record it saves and loads)
 *   agent               the conversation loop: the top floor of the services
 *   pump · renderer-host      below both shells: the event pump they forward, and the
 *                       renderer's files and CSP they serve (they import only common)
 *   app                 the composition roots and the call router
 *   electron · web · cli    the shells (the window, the browser tab, the command line:
 *                       `waypoint run` and `waypoint mcp`); they never import each other
 *
 * Type-only imports count: an interface is declared by the code that uses it.
 */
const main = (folders) => `^src/main/(${folders})/`;
const services = 'agent|plan|recovery|store|chats|settings|attachments|tools|common';
const belowShells = `app|pump|renderer-host|${services}`;
const production = { pathNot: '\\.test\\.tsx?$' };
/** 'electron' as imported, or as resolved into node_modules (wherever that folder is). */
const ELECTRON = '^electron(/|$)|(^|/)node_modules/electron/';
/** A folder of src/main may import only itself and the folders listed. */
const onlyImports = (name, folder, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: main(folder), ...production },
  to: { path: '^src/main/', pathNot: main(`${folder}|${allowed}`) },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between files (and so none between folders), type-only imports included.',
      severity: 'error',
      from: { pathNot: '^src/renderer/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-at-runtime-in-the-renderer',
      comment:
        "The store's typed Zustand slices name the whole state's type (a type-only loop the compiler erases); a runtime loop is still an error.",
      severity: 'error',
      from: { path: '^src/renderer/' },
      // Not `preCompilationOnly: false`: depcruise only sets that flag with tsPreCompilationDeps
      // 'specify', so that rule never fired (scripts/architecture-every-rule.test.ts found it).
      // A runtime cycle is one none of whose imports is type-only.
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    onlyImports('common-is-the-ground', 'common', 'common', 'common/ imports nothing else of main.'),
    onlyImports('tools-stand-on-common', 'tools', 'common', 'The tool interface lives with the tools; tools know no service.'),
    onlyImports('plan-below-the-loop', 'plan', 'tools|common', 'The plan engine and its dialects never import the loop, recovery, chats or the store.'),
    onlyImports('recovery-below-the-loop', 'recovery', 'tools|common', 'Recovery is a policy under the loop: no agent, plan, chats or store imports.'),
    onlyImports('chats-know-no-files', 'chats', 'common', 'The state of record of chats and runs: no store, loop or other service (its log port is declared here, implemented by store).'),
    onlyImports('store-stands-on-chats', 'store', 'chats|common', 'The logs save and load the chats of record; they never import the loop, settings or other services.'),
    onlyImports('settings-below-the-loop', 'settings', 'common', 'The settings and key stores never import the loop or other services.'),
    onlyImports('attachments-below-the-loop', 'attachments', 'common', 'Stored files and their checks never import the loop or other services.'),
    onlyImports('pump-below-the-shells', 'pump', 'common', 'The event pump knows only the contract.'),
    onlyImports('renderer-host-below-the-shells', 'renderer-host', 'common', 'Serving the built renderer needs no service.'),
    onlyImports('agent-is-the-top-service', 'agent', 'plan|recovery|store|chats|settings|attachments|tools|common', 'The loop imports the services below it, never the app or a shell.'),
    onlyImports('app-below-the-shells', 'app', `pump|${services}`, 'The composition root never imports a shell.'),
    onlyImports('electron-never-imports-web', 'electron', belowShells, 'Shells never import each other.'),
    onlyImports('web-never-imports-electron', 'web', belowShells, 'Shells never import each other.'),
    onlyImports('cli-imports-no-other-shell', 'cli', belowShells, 'Shells never import each other.'),
    {
      name: 'only-the-electron-shell-imports-electron',
      comment: "Only src/main/electron and src/preload import 'electron'.",
      severity: 'error',
      from: { path: '^', pathNot: '^src/(main/electron|preload)/|\\.test\\.tsx?$|^e2e/' },
      to: { path: ELECTRON },
    },
    {
      name: 'shared-imports-only-shared',
      comment: 'src/shared is the contract: no main, renderer or preload code, no Node built-ins (its tests may use the test libraries).',
      severity: 'error',
      from: { path: '^src/shared/', ...production },
      to: { pathNot: '^src/shared/|(^|/)node_modules/zod/' },
    },
    {
      name: 'renderer-never-imports-main',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(main|preload)/' },
    },
    {
      name: 'preload-imports-only-shared',
      comment: "The sandboxed preload gets the contract from src/shared and 'electron', nothing else.",
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { pathNot: `^src/(shared|preload)/|${ELECTRON}` },
    },
    {
      name: 'production-never-imports-tests',
      comment: 'Test harnesses live in test-support/ and are never bundled.',
      severity: 'error',
      from: { path: '^src/', ...production },
      to: { path: '^(test-support|e2e|bench|scripts)/|\\.test\\.tsx?$' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Packages are resolved (so a rule can name one, like 'electron') but not walked into.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^out/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
    skipAnalysisNotInRules: true,
  },
};
