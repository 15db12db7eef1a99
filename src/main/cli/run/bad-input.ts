/** A refusal before a run starts (a chat that is not there, a key that is missing): one `waypoint: …` line, exit 1. */
export class BadInput extends Error {}
