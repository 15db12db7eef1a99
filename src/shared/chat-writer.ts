import { z } from 'zod';

/**
 * Who writes a chat when it is not this Waypoint process (one writer per chat log; see
 * docs/architecture.md), as far as can be known from here:
 * - `running`: a process on this computer that is verifiably the one that took the lock;
 * - `unverified`: its pid runs, but nothing tells whether it is still the process that took the
 *   lock (an older Waypoint's lock records no start time);
 * - `other_host`: another computer's process (a shared folder): it cannot be checked from here.
 * Only an unverified or other host's lock may be taken over by the user.
 */
export const ChatWriter = z.object({
  holder: z.string(),
  host: z.string(),
  pid: z.number().int(),
  since: z.string(),
  /** Names the lock the user is shown: "Take over" takes this lock, not one that replaced it meanwhile. */
  token: z.string(),
  state: z.enum(['running', 'unverified', 'other_host']),
});
export type ChatWriter = z.infer<typeof ChatWriter>;

const SessionId = z.string().min(1).max(100);

export const chatWriterCalls = {
  /** Who writes the chat when another process does (null: nobody else; this process may write it). */
  getChatWriter: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ writer: ChatWriter.nullable() }),
  },
  /**
   * "Take over": this process becomes the chat's writer although the lock's holder cannot be proven
   * gone. Refused while the holder is verifiably running, and when the lock is no longer the one
   * named by `token`. The process that lost the lock stops writing the chat.
   */
  takeOverChat: {
    input: z.object({ sessionId: SessionId, token: z.string().min(1).max(100) }).strict(),
    output: z.object({ takenOver: z.boolean() }),
  },
} as const;
