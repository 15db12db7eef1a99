import fsp from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch, diffLines } from 'diff';
import { UserFacingError } from '../common/errors';
import { readRegularFile } from '../common/regular-file';
import type { ChangedFile } from '../../shared/worktree';
import { resolveIn, type CheckpointBlobs, type Snapshot } from './checkpoint-blobs';
import type { TurnCheckpoints } from './turn-checkpoints';
import type { CommandSnapshots } from './command-snapshots';

/** A NUL in the content: what git takes for binary too. */
const isBinary = (text: string | null): boolean => text !== null && text.includes('\0');

interface Origin {
  rel: string;
  abs: string;
  before: Snapshot;
}

/**
 * "Changes" of a chat that works in a plain folder (no worktree): the files its file tools
 * changed (turn-checkpoints.ts keeps each file as it was before the chat first changed it) and
 * those its commands changed (command-snapshots.ts), compared with the file as it is now
 * (docs/architecture.md "Commands in a plain folder").
 */
export class FolderChanges {
  constructor(
    private readonly blobs: CheckpointBlobs,
    private readonly turns: TurnCheckpoints,
    private readonly commands: CommandSnapshots,
  ) {}

  /**
   * One origin per file. A command's is recorded only for a file the file tools had not captured
   * yet, so when both have one the command's is the older: it wins.
   */
  private async origins(sessionId: string, root: string | null): Promise<Origin[]> {
    const byRel = new Map<string, Origin>();
    for (const origin of await this.turns.origins(root, sessionId)) byRel.set(origin.rel, origin);
    for (const origin of await this.commands.origins(sessionId, root)) {
      const target = resolveIn(root, origin.rel);
      if (target) byRel.set(target.rel, { rel: target.rel, abs: target.abs, before: origin.before });
    }
    return [...byRel.values()];
  }

  private async text(sessionId: string, snapshot: Snapshot): Promise<string | null> {
    if (snapshot === null) return null;
    return (await readRegularFile(path.join(this.blobs.dir(sessionId), 'blobs', snapshot))).toString('utf8');
  }

  private async now(abs: string): Promise<string | null> {
    const stat = await fsp.stat(abs).catch(() => null);
    return stat?.isFile() ? (await readRegularFile(abs)).toString('utf8') : null;
  }

  /** Said above the list when commands' changes there are not followed (a folder too big to snapshot in time). */
  note(sessionId: string, root: string | null): string | null {
    return this.commands.notFollowed(sessionId, root) ? `${root} is too big to snapshot in time, so what commands change there is not listed; files Claude's file tools changed are.` : null;
  }

  async list(sessionId: string, root: string | null): Promise<ChangedFile[]> {
    const files: ChangedFile[] = [];
    for (const origin of await this.origins(sessionId, root)) {
      if ((await this.blobs.currentHash(origin.abs)) === origin.before) continue; // as it was: no change
      const before = await this.text(sessionId, origin.before);
      const after = await this.now(origin.abs);
      const status = before === null ? 'added' : after === null ? 'deleted' : 'modified';
      // A binary file has no lines to count (a command's build output, an image), as git's numstat says "-".
      if (isBinary(before) || isBinary(after)) {
        files.push({ path: origin.rel, status, added: null, removed: null });
        continue;
      }
      let added = 0;
      let removed = 0;
      for (const part of diffLines(before ?? '', after ?? '')) {
        if (part.added) added += part.count ?? 0;
        else if (part.removed) removed += part.count ?? 0;
      }
      files.push({ path: origin.rel, status, added, removed });
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async find(sessionId: string, root: string | null, rel: string) {
    const origin = (await this.origins(sessionId, root)).find((o) => o.rel === rel);
    if (!origin) throw new UserFacingError('invalid_input', `"${rel}" is not a file this chat changed.`);
    return origin;
  }

  async diff(sessionId: string, root: string | null, rel: string): Promise<string> {
    const origin = await this.find(sessionId, root, rel);
    const before = await this.text(sessionId, origin.before);
    const after = await this.now(origin.abs);
    if (isBinary(before) || isBinary(after)) return `Binary files ${before === null ? '/dev/null' : `a/${rel}`} and ${after === null ? '/dev/null' : `b/${rel}`} differ\n`;
    return createTwoFilesPatch(before === null ? '/dev/null' : `a/${rel}`, after === null ? '/dev/null' : `b/${rel}`, before ?? '', after ?? '', undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
  }

  /** The file as it was before the chat first changed it; one it created goes. */
  async revert(sessionId: string, root: string | null, rel: string): Promise<void> {
    const origin = await this.find(sessionId, root, rel);
    await this.blobs.put(sessionId, origin.abs, origin.before);
  }
}
