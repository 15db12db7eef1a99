import { randomBytes } from 'node:crypto';

/** Ids shaped like the real API's (msg_…, toolu_…, req_…), so clients see nothing unusual. */
export function apiId(prefix: 'msg' | 'toolu' | 'srvtoolu' | 'req'): string {
  return `${prefix}_01${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}
