import { UserFacingError } from '../common/errors';

/** A file that cannot be attached: the message names the file and the reason; nothing is stored. */
export class AttachmentRefusal extends UserFacingError {
  constructor(message: string) {
    super('invalid_input', message);
    this.name = 'AttachmentRefusal';
  }
}
