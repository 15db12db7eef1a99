import type { NoticeItem } from '../../../../shared/transcript';

const TITLE: Record<NoticeItem['level'], string> = { info: 'Note', warning: 'Warning', error: 'Error' };

export function NoticeCallout({ item }: { item: NoticeItem }) {
  return (
    <div className={`notice notice--${item.level}`} role={item.level === 'error' ? 'alert' : 'note'}>
      <strong className="notice-title">{TITLE[item.level]}</strong> <span className="notice-text" data-find>{item.text}</span>
    </div>
  );
}
