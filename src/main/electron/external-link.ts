import { externalUrlToOpen } from './navigation-policy';

/** What opening a link needs from Electron: a consent prompt and shell.openExternal. */
export interface ExternalLinkPorts {
  /** Asks the user; resolves true only on an explicit "Open". */
  confirm(url: string): Promise<boolean>;
  open(url: string): Promise<void>;
}

export type ExternalLinkOutcome =
  | { kind: 'opened'; url: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'declined'; url: string };

/**
 * A link leaves the app only if it is a plain http(s) URL and the user said yes to that exact
 * URL: a `file:`, `javascript:` or custom-scheme URL never reaches the OS, with or without consent.
 */
export async function openExternalWithConsent(rawUrl: string, ports: ExternalLinkPorts): Promise<ExternalLinkOutcome> {
  const url = externalUrlToOpen(rawUrl);
  if (!url) return { kind: 'refused', reason: 'Only http and https links open outside Waypoint.' };
  if (!(await ports.confirm(url))) return { kind: 'declined', url };
  await ports.open(url);
  return { kind: 'opened', url };
}

/**
 * One prompt at a time: while the user is deciding, further links are refused rather than
 * queued, so a misbehaving page cannot stack up dialogs.
 */
export function createExternalLinkOpener(ports: ExternalLinkPorts): (rawUrl: string) => Promise<ExternalLinkOutcome> {
  let pending = false;
  return async (rawUrl) => {
    if (pending) return { kind: 'refused', reason: 'Another link is waiting for your answer.' };
    pending = true;
    try {
      return await openExternalWithConsent(rawUrl, ports);
    } finally {
      pending = false;
    }
  };
}

/** The consent dialog's wording, kept here so it is reviewed with the policy. */
export function consentDialogOptions(url: string) {
  return {
    type: 'question' as const,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Open link',
    message: 'Open this link in your web browser?',
    detail: url,
  };
}
