/**
 * Waypoint's keyboard shortcuts: one table that both the handler (install-shortcuts.ts) and the
 * "Keyboard shortcuts" list read, so what is shown is what works. "Mod" is ⌘ on macOS and Ctrl
 * elsewhere; either is accepted everywhere. Chosen not to clash with the browser when Waypoint
 * runs in a tab: Ctrl+N/T/W are reserved by browsers, and Ctrl+Shift+P is Firefox's private
 * window (a page can't override it), so the plan panel uses Mod+Shift+L. Mod+F is the browser's
 * own find, which no longer reaches a long chat's older text, so a tab finds in chat with
 * Mod+Shift+F; the desktop app, where nothing else owns it, takes Mod+F too.
 */

export type ShortcutId =
  | 'send'
  | 'newline'
  | 'stop'
  | 'newChat'
  | 'togglePlan'
  | 'focusPrompt'
  | 'settings'
  | 'shortcuts'
  | 'find'
  | 'chatActions'
  | 'chatMove';

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export interface Shortcut {
  id: ShortcutId;
  action: string;
  /** Key combinations as shown, with "Mod" for ⌘/Ctrl. */
  keys: string[];
  /** Where it applies, when that is not everywhere. */
  where?: string;
}

export const SHORTCUTS: Shortcut[] = [
  { id: 'send', action: 'Send the message', keys: ['Enter', 'Mod+Enter'], where: 'in the message box' },
  { id: 'newline', action: 'New line in the message', keys: ['Shift+Enter'], where: 'in the message box' },
  { id: 'stop', action: 'Stop Claude', keys: ['Escape'], where: 'in the message box, while Claude works' },
  { id: 'newChat', action: 'New chat', keys: ['Mod+Shift+O'] },
  { id: 'togglePlan', action: 'Collapse or expand the Task plan', keys: ['Mod+Shift+L'] },
  { id: 'focusPrompt', action: 'Go to the question waiting for you (approval, stuck step or Claude’s question)', keys: ['Mod+Shift+A'] },
  { id: 'find', action: 'Find in chat', keys: ['Mod+Shift+F'] },
  { id: 'settings', action: 'Open Settings', keys: ['Mod+,'] },
  { id: 'shortcuts', action: 'Show keyboard shortcuts', keys: ['Mod+/'] },
  // The chat list's own keys (SessionItem.tsx): each chat is one Tab stop, its actions are on the arrows.
  { id: 'chatActions', action: 'A chat’s actions (pin, rename, export, delete)', keys: ['Right arrow', 'Left arrow'], where: 'in the chat list' },
  { id: 'chatMove', action: 'The chat above or below', keys: ['Up arrow', 'Down arrow'], where: 'in the chat list' },
];

/** In the desktop app Mod+N also starts a new chat (a browser tab can't have it). */
export const ELECTRON_NEW_CHAT = 'Mod+N';

/** In the desktop app Mod+F also finds in chat (in a tab it stays the browser's find). */
export const ELECTRON_FIND = 'Mod+F';

const isMod = (e: KeyLike) => (e.ctrlKey || e.metaKey) && !e.altKey;
const letter = (e: KeyLike, l: string) => e.code === `Key${l.toUpperCase()}` || e.key.toLowerCase() === l;

/** The global shortcut a key press means, if any (send/newline/stop are the composer's own). */
export function matchGlobal(e: KeyLike, electron: boolean): ShortcutId | null {
  if (!isMod(e)) return null;
  if (e.shiftKey && letter(e, 'o')) return 'newChat';
  if (electron && !e.shiftKey && letter(e, 'n')) return 'newChat';
  if (letter(e, 'f') && (e.shiftKey || electron)) return 'find';
  if (e.shiftKey && letter(e, 'l')) return 'togglePlan';
  if (e.shiftKey && letter(e, 'a')) return 'focusPrompt';
  if (!e.shiftKey && (e.key === ',' || e.code === 'Comma')) return 'settings';
  if (e.key === '/' || e.key === '?' || e.code === 'Slash') return 'shortcuts';
  return null;
}

export function isMacPlatform(platform: string): boolean {
  return /mac|iphone|ipad/i.test(platform);
}

/** "Mod+Shift+O" → "⌘ Shift O" on macOS, "Ctrl Shift O" elsewhere, as separate keys. */
export function keyParts(combo: string, mac: boolean): string[] {
  return combo.split('+').map((part) => (part === 'Mod' ? (mac ? '⌘' : 'Ctrl') : part));
}
