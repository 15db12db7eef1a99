import { createContext, useContext } from 'react';
import type { CustomContainerComponentProps, CustomItemComponentProps } from 'virtua';
import { rowKey } from './row-key';
import type { TranscriptRow } from './transcript-rows';

/** The rows the virtualiser draws, so each row box can carry its key (find in chat looks rows up by it). */
export const RowsContext = createContext<readonly TranscriptRow[]>([]);

/**
 * The virtualiser's elements. Rows are absolutely positioned, so the gap between them is each
 * row's own padding (a grid gap would not apply), and the first row carries the space above the
 * conversation. The padding sits on an inner box: the virtualiser measures the row's content box,
 * which leaves the row's own padding out. data-row lets the log keep the row holding focus mounted.
 */
/** The class of the virtualiser's box (the list), the log's child whose height is the whole chat's. */
export const LIST_CLASS = 'transcript-inner';

export function TranscriptInner({ style, children, ref }: CustomContainerComponentProps) {
  return (
    <div ref={ref as never} className={LIST_CLASS} style={style}>
      {children}
    </div>
  );
}

export function TranscriptRowBox({ style, index, children, ref }: CustomItemComponentProps) {
  const row = useContext(RowsContext)[index];
  return (
    <div ref={ref as never} style={style} data-row={index}>
      <div className={index === 0 ? 'transcript-row transcript-row--first' : 'transcript-row'} data-row-key={row ? rowKey(row) : undefined}>
        {children}
      </div>
    </div>
  );
}
