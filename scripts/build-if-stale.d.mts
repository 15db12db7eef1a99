export const OUTPUTS: string[];
export const STAMP: string;
export function fingerprint(root: string): string;
export function isFresh(root: string): boolean;
export function buildIfStale(root: string, build?: (root: string) => boolean): 'fresh' | 'built' | 'failed';
