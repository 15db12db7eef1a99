import { fail, type ToolOutcome } from '../tool';
import { errorCode, errorMessage } from './tool-input';

/** Map an unexpected fs failure to a ToolError class the recovery policy understands. */
export function fsFailure(action: string, rel: string, error: unknown): ToolOutcome {
  const code = errorCode(error);
  switch (code) {
    case 'ENOENT':
      return fail('not_found', `${rel} does not exist. Use list_directory to see what is there.`);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return fail('permission', `Cannot ${action} ${rel}: permission denied.`);
    case 'EISDIR':
      return fail('invalid_parameter', `${rel} is a folder, not a file. Use list_directory for folders.`);
    case 'ENOTDIR':
      return fail('invalid_parameter', `A parent of ${rel} is a file, not a folder.`);
    case 'EBUSY':
    case 'EAGAIN':
    case 'EMFILE':
    case 'ENFILE':
      return fail('transient', `Cannot ${action} ${rel} right now (${code}); try again.`);
    case 'ENOSPC':
      return fail('unavailable', `Cannot ${action} ${rel}: the disk is full.`);
    default:
      return fail('unknown', `Cannot ${action} ${rel}: ${errorMessage(error)}`);
  }
}

/** Run a tool body so that nothing ever throws past `execute`. */
export async function guarded(action: string, rel: string, body: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await body();
  } catch (error) {
    return fsFailure(action, rel, error);
  }
}
