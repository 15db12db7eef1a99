export function requiredNode(electronDir: string): string;
export function atLeast(version: string, minimum: string): boolean;
export function electronInstalled(electronDir: string): boolean;
export function prepareDesktopStart(options: {
  nodeVersion: string;
  electronDir: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}): Promise<string | null>;
