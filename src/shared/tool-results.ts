/**
 * Tool results both sides must recognise: main sends them to Claude, the window words the
 * card by them ("cancelled" rather than "failed"), in logs old and new alike.
 */
export const QUESTION_CANCELLED =
  'The user pressed Stop instead of answering, so the question was cancelled. Do not ask again now: wait for their next message.';
