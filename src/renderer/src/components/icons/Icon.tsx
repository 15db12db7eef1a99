import type { ReactNode } from 'react';

/**
 * Line icons as inline SVG: emoji and rarer symbols ("🗑", "⤼") render as empty boxes where the
 * system lacks a font for them (common on Linux). Icons are decorative — the control around one
 * carries the accessible name — and take the text colour, so both themes keep their contrast.
 */
const PATHS = {
  chevron: <path d="M6 9l6 6 6-6" />,
  pencil: (
    <>
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4z" />
    </>
  ),
  trash: (
    <>
      <path d="M3 6h18" />
      <path d="M8 6V4h8v2" />
      <path d="M19 6l-1 14H6L5 6" />
      <path d="M10 11v6M14 11v6" />
    </>
  ),
  check: <path d="M20 6L9 17l-5-5" />,
  download: (
    <>
      <path d="M12 3v12M7 10l5 5 5-5" />
      <path d="M5 21h14" />
    </>
  ),
  cross: <path d="M18 6L6 18M6 6l12 12" />,
  circle: <circle cx="12" cy="12" r="6" />,
  skip: (
    <>
      <path d="M5 5l9 7-9 7z" />
      <path d="M19 5v14" />
    </>
  ),
  menu: <path d="M4 6h16M4 12h16M4 18h16" />,
  paperclip: <path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />,
  file: (
    <>
      <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
      <path d="M14 2v6h6" />
    </>
  ),
  alert: (
    <>
      <path d="M10.3 3.9L1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
      <path d="M12 9v4M12 17h.01" />
    </>
  ),
  search: (
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="M21 21l-5-5" />
    </>
  ),
  up: <path d="M6 15l6-6 6 6" />,
  pin: (
    <>
      <path d="M9 3h6l-1 6 3 3v2H7v-2l3-3z" />
      <path d="M12 14v7" />
    </>
  ),
  pause: <path d="M9 6v12M15 6v12" />,
  diff: (
    <>
      <path d="M12 3v8M8 7h8" />
      <path d="M8 15h8" />
      <path d="M5 21h14" />
    </>
  ),
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name]}
    </svg>
  );
}
