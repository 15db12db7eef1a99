export const CITING_FOLDERS: string[];
export const OLD_NAME: string;
export const NEW_PATH: string;
export function recite(text: string): { text: string; count: number };
export function citingFiles(root: string): string[];
export function citeContract(root: string, options?: { write?: boolean }): { files: string[]; citations: number };
