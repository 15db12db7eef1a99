import type { ReactNode } from 'react';
import type { NoticeItem } from '../../../../shared/transcript';

const TITLE: Record<NoticeItem['level'], string> = { info: 'Note', warning: 'Warning', error: 'Error' };

/** A notice in the transcript; `children` is what answers it, shown with it ("Retry now"). */
export function NoticeCallout({ item, children }: { item: NoticeItem; children?: ReactNode }) {
  return (
    <div className={`notice notice--${item.level}`} role={item.level === 'error' ? 'alert' : 'note'}>
      <strong className="notice-title">{TITLE[item.level]}</strong> <span className="notice-text" data-find>{item.text}</span>
      {children}
    </div>
  );
}
