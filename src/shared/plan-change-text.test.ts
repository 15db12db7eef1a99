import { describe, expect, it } from 'vitest';
import { nameStepsInChange } from './plan-change-text';

const plan = {
  steps: [
    { id: 1, title: 'Read the code' },
    { id: 2, title: 'Write tests' },
    { id: 6, title: `Make icons follow the theme colour ${'and much more '.repeat(6)}` },
  ],
} as unknown as Parameters<typeof nameStepsInChange>[1];

describe('nameStepsInChange', () => {
  it('names each step it mentions by its title, after its id', () => {
    expect(nameStepsInChange('Updated plan: step 2 completed', plan)).toBe('Updated plan: step 2 “Write tests” completed');
    expect(nameStepsInChange('Updated plan: step 1 completed, step 2 started', plan)).toBe(
      'Updated plan: step 1 “Read the code” completed, step 2 “Write tests” started',
    );
    expect(nameStepsInChange('Updated plan: note on step 1', plan)).toBe('Updated plan: note on step 1 “Read the code”');
    expect(nameStepsInChange('Updated plan: step 1 attempt 2 (not_found, retrying)', plan)).toBe(
      'Updated plan: step 1 “Read the code” attempt 2 (not_found, retrying)',
    );
  });

  it('shortens a long title, and leaves unknown steps, ranges and other lines as they are', () => {
    const named = nameStepsInChange('Updated plan: step 6 added', plan);
    expect(named).toMatch(/^Updated plan: step 6 “Make icons follow the theme colour and much more.*…” added$/);
    expect(named.length).toBeLessThan(100);
    expect(nameStepsInChange('Updated plan: step 9 deleted', plan)).toBe('Updated plan: step 9 deleted');
    expect(nameStepsInChange('Updated plan: steps 4–6 added', plan)).toBe('Updated plan: steps 4–6 added');
    expect(nameStepsInChange('Created plan: 3 steps', plan)).toBe('Created plan: 3 steps');
    expect(nameStepsInChange('Updated plan: step 12 started', plan)).toBe('Updated plan: step 12 started');
  });
});
