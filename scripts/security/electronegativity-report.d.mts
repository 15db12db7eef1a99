export interface Finding {
  check: string;
  severity: string;
  confidence: string;
  file: string;
  location: string;
  sample: string;
  description: string;
}
export interface AllowEntry {
  check: string;
  file: string;
  justification: string;
  provenBy: string[];
}
export const BLOCKING_SEVERITIES: string[];
export function parseCsv(text: string): string[][];
export function parseFindings(csvText: string, root: string): Finding[];
export function parseAllowList(json: unknown, root: string): AllowEntry[];
export function evaluate(
  findings: Finding[],
  entries: AllowEntry[],
): { blocking: Finding[]; justified: Finding[]; notes: Finding[]; unused: AllowEntry[]; ok: boolean };
export function describeFinding(f: Finding): string;
