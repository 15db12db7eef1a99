import path from 'node:path';
import type { ParsedInput, ToolDefinition, ToolError } from '../tool';
import { canonical, canonicalRoot, confine, isInside } from './confine';

/**
 * Folders (and files) of Waypoint's own that its tools never touch, even when they lie inside
 * the workspace (workspace = home, data in ~/.config/Waypoint): the data folder holds the
 * settings (auto-approve, approval rules, MCP servers — what the next start trusts), every chat's
 * log and the encrypted key. Reads are refused too: another chat's log is the user's, not this
 * chat's. A path is checked where it really leads (symlinks resolved), so a link to the data
 * folder is refused as well. Commands cannot be confined by path; their dry run says so.
 * See docs/security.md "Waypoint's data folder".
 */

export interface OffLimitsPlace {
  /** Absolute; resolved (symlinks) when checked, so it may not exist yet. */
  path: string;
  /** What it is, in words: "Waypoint's data folder". */
  what: string;
}

/** Case-insensitive file systems (macOS and Windows by default): .config/waypoint is .config/Waypoint there. */
const FOLDS_CASE = process.platform === 'darwin' || process.platform === 'win32';
const key = (p: string): string => (FOLDS_CASE ? p.toLowerCase() : p);

export class OffLimits {
  static readonly NONE = new OffLimits([]);

  constructor(private readonly places: readonly OffLimitsPlace[]) {}

  /**
   * The places that count for a workspace whose canonical root is `realRoot`, resolved now. A
   * workspace the user put inside a place itself (a folder of their own under it) is theirs to
   * work in: only a place inside the workspace, or the workspace itself, counts.
   */
  private placesFor(realRoot: string): { place: string; what: string }[] {
    const found: { place: string; what: string }[] = [];
    for (const { path: given, what } of this.places) {
      let place: string;
      try {
        place = canonical(path.resolve(given));
      } catch {
        continue; // a symlink loop: nothing can be opened there either
      }
      if (isInside(key(place), key(realRoot)) && key(place) !== key(realRoot)) continue;
      found.push({ place, what });
    }
    return found;
  }

  /** The place that holds `abs` (canonical) for the workspace at `realRoot`, or null. */
  holder(realRoot: string, abs: string): { place: string; what: string } | null {
    return this.placesFor(realRoot).find(({ place }) => isInside(key(place), key(abs))) ?? null;
  }

  /** The refusal for a workspace path (as a tool got it) inside one of the places, or null. */
  refusal(root: string, given: string): ToolError | null {
    if (this.places.length === 0) return null;
    const target = confine(root, given);
    const rootResult = canonicalRoot(root);
    if (!target.ok || !rootResult.ok) return null; // the tool refuses it anyway, in its own words
    const held = this.holder(rootResult.root, target.path.abs);
    if (!held) return null;
    return {
      kind: 'permission',
      message: `"${given.trim()}" is inside ${held.what}, which tools can't read or change (${held.place}: Waypoint's settings, chats and key). Work on other files; the user changes Waypoint's settings in the app.`,
    };
  }

  /**
   * For a walk of the workspace at `realRoot`: whether to leave out an entry (canonical, as walk
   * gives it) with all it holds. The places are resolved once per walk, not once per entry.
   */
  skipperFor(realRoot: string): ((abs: string) => boolean) | undefined {
    if (this.places.length === 0) return undefined;
    const places = this.placesFor(realRoot);
    return places.length === 0 ? undefined : (abs) => places.some(({ place }) => isInside(key(place), key(abs)));
  }

  /** The places inside this workspace, for a command's dry run (a command is not confined by path). */
  inside(root: string): OffLimitsPlace[] {
    const rootResult = canonicalRoot(root);
    if (!rootResult.ok) return [];
    return this.places.filter((p) => {
      try {
        const place = canonical(path.resolve(p.path));
        return isInside(key(rootResult.root), key(place)) && this.holder(rootResult.root, place) !== null;
      } catch {
        return false;
      }
    });
  }
}

/** Which input field of a workspace tool names the path it works on. */
const PATH_FIELD: Record<string, 'path' | 'cwd'> = {
  read_file: 'path',
  write_file: 'path',
  edit_file: 'path',
  list_directory: 'path',
  search_files: 'path',
  run_command: 'cwd',
};

/**
 * A workspace tool that refuses paths inside the off-limits places before anything else: the
 * precheck (so nothing is asked), the run and the dry run say the same. A command's dry run also
 * says when such a place lies in the workspace, since the command itself can still reach it.
 */
export function guardOffLimits(tool: ToolDefinition, root: string, offLimits: OffLimits): ToolDefinition {
  const field = PATH_FIELD[tool.name];
  if (!field || offLimits === OffLimits.NONE) return tool;
  // Every workspace tool's parsed input is an object; its path field, when given, a string.
  const refusal = (input: ParsedInput): ToolError | null => {
    const value = (input as unknown as Record<string, unknown>)[field];
    return offLimits.refusal(root, typeof value === 'string' ? value : '.');
  };
  return {
    ...tool,
    describeDryRun(input) {
      const refused = refusal(input);
      if (refused) return `Cannot run ${tool.name}: ${refused.message}`;
      const dryRun = tool.describeDryRun(input);
      if (tool.name !== 'run_command') return dryRun;
      const places = offLimits.inside(root);
      const note = places.map((p) => `Note: ${p.what} (${p.path}) is inside this workspace; file tools can't touch it, but a command can.`);
      return [dryRun, ...note].join('\n');
    },
    async precheck(input) {
      return refusal(input) ?? (tool.precheck ? await tool.precheck(input) : null);
    },
    async execute(input, ctx) {
      const refused = refusal(input);
      return refused ? { ok: false, error: refused } : tool.execute(input, ctx);
    },
  };
}
