import { useId } from 'react';
import type { RerunPreview } from '../../store/rerun-slice';

interface Props {
  preview: RerunPreview;
  /** What is replaced: "the replaced turns" (Edit message) or "the replaced turn" (Retry reply). */
  replaced: string;
  restore: boolean;
  onRestore(restore: boolean): void;
  disabled: boolean;
}

/**
 * The offer to put files back before a rerun (docs/contract.md §5): every file Claude's tools changed
 * in the replaced turns, in a plan or not. Commands are said truthfully: what they did stays.
 */
export function RestoreFilesOffer({ preview, replaced, restore, onRestore, disabled }: Props) {
  const id = useId();
  const { files, commands } = preview;
  return (
    <>
      {files.length > 0 && (
        <div className="msg-edit-files">
          <input id={`${id}-restore`} type="checkbox" checked={restore} onChange={(e) => onRestore(e.target.checked)} disabled={disabled} />
          <label htmlFor={`${id}-restore`}>
            First put back the {files.length === 1 ? 'file' : `${files.length} files`} {replaced} changed:{' '}
            {files.map((f, i) => (
              <span key={f.path}>
                {i > 0 && ', '}
                <code>{f.path}</code>
                {f.action === 'delete' ? ' (remove)' : ''}
                {f.changedOutside ? ' (changed outside Waypoint since: left alone)' : ''}
              </span>
            ))}
          </label>
        </div>
      )}
      {commands > 0 && (
        <p className="hint">
          Claude ran {commands === 1 ? 'a command' : `${commands} commands`} in {replaced}: what {commands === 1 ? 'it' : 'they'} changed cannot be put back.
        </p>
      )}
    </>
  );
}

/** Whether there is anything to offer. */
export const offersSomething = (preview: RerunPreview): boolean => preview.files.length > 0 || preview.commands > 0;
