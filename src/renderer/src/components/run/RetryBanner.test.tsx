// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { RetryBanner, secondsUntil } from './RetryBanner';
import { canRetryNow } from './RetryNow';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('RetryBanner', () => {
  it('counts down to retryAt and offers Abort', () => {
    // A frozen clock: on a loaded machine render may take longer than the 0.6 s margin.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00.000Z') });
    const onAbort = vi.fn();
    const retryAt = new Date(Date.now() + 7_600).toISOString();
    render(<RetryBanner state={{ status: 'retrying', reason: 'Claude is overloaded', attempt: 2, maxAttempts: 5, retryAt }} onAbort={onAbort} />);
    expect(screen.getByRole('status').textContent).toBe('Claude is overloaded — retrying in 8 s (attempt 2/5)');
    fireEvent.click(screen.getByRole('button', { name: 'Abort' }));
    expect(onAbort).toHaveBeenCalledOnce();
  });

  it('never shows negative seconds', () => {
    expect(secondsUntil('2025-01-01T00:00:10.000Z', Date.parse('2025-01-01T00:00:02.100Z'))).toBe(8);
    expect(secondsUntil('2025-01-01T00:00:10.000Z', Date.parse('2025-01-01T00:00:12.000Z'))).toBe(0);
  });
});

describe('canRetryNow', () => {
  const notice = (code?: string, level: 'error' | 'warning' = 'error'): TranscriptItem => ({ id: 'n', createdAt: '', kind: 'notice', level, text: 'x', ...(code ? { code } : {}) });
  it('is offered when idle and the last item is a transient-fault error notice', () => {
    for (const code of ['overloaded', 'rate_limit', 'server', 'network', 'stalled']) expect(canRetryNow([notice(code)], true)).toBe(true);
    expect(canRetryNow([notice('overloaded')], false)).toBe(false);
    expect(canRetryNow([notice('auth')], true)).toBe(false);
    expect(canRetryNow([notice('overloaded', 'warning')], true)).toBe(false);
    expect(canRetryNow([notice('overloaded'), { id: 'u', createdAt: '', kind: 'user', text: 'hi' }], true)).toBe(false);
    expect(canRetryNow(undefined, true)).toBe(false);
  });
});
