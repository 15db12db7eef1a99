/**
 * Counts as people read them ("12,345"). One formatter for the app: `n.toLocaleString('en-US')`
 * builds a new Intl.NumberFormat on every call, and the header's cost and context chips format
 * five numbers on every cost update of a busy chat (a third of the renderer's script time in the
 * sub-agent tree benchmark went there).
 */
const enUs = new Intl.NumberFormat('en-US');

export const formatCount = (n: number): string => enUs.format(n);
