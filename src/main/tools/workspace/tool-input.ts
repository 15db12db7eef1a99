export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/** "12,345" — byte counts and line counts read better with separators. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');
