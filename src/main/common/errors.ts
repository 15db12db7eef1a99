import type { CallError } from '../../shared/contract';

/** An error thrown on purpose, with a message meant for the user; the call router passes it on. */
export class UserFacingError extends Error {
  constructor(
    readonly code: CallError['code'],
    message: string,
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}
