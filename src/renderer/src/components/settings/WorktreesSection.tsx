import { useEffect, useState } from 'react';
import { useWaypoint } from '../../store/store-context';
import { Check } from './Check';

function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/**
 * Settings "Work in a git worktree" (saved with the dialog, like every field), how many chat
 * worktrees exist and what they take, and "Clean up worktrees" (at once: it removes the
 * worktrees of chats that no longer exist, nothing a chat still uses).
 */
export function WorktreesSection({ id, checked, onChange }: { id: string; checked: boolean; onChange(value: boolean): void }) {
  const call = useWaypoint((s) => s.changesCall);
  const [usage, setUsage] = useState<string>('Counting worktrees…');
  const show = (count: number, bytes: number, removed?: number) =>
    setUsage(`${removed !== undefined ? `Removed ${removed}. ` : ''}${count} ${count === 1 ? 'worktree' : 'worktrees'}, ${sizeText(bytes)}.`);
  useEffect(() => {
    void call('getWorktreeUsage', {}).then((r) => (r.ok ? show(r.value.count, r.value.bytes) : setUsage(r.message)));
  }, [call]);
  const cleanUp = async () => {
    const r = await call('cleanUpWorktrees', {});
    if (r.ok) show(r.value.count, r.value.bytes, r.value.removed);
    else setUsage(r.message);
  };
  return (
    <>
      <Check id={id} label="Work in a git worktree" checked={checked} onChange={onChange}
        hint="A new chat in a git repository works in its own worktree on branch waypoint/<chat>, kept in Waypoint's data folder; you merge or discard it from Changes." />
      <div className="field">
        <p className="hint" role="status">{usage}</p>
        <button type="button" className="btn" onClick={() => void cleanUp()}>Clean up worktrees</button>
      </div>
    </>
  );
}
