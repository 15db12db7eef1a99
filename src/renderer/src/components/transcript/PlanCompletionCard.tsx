import type { PlanCompletionItem } from '../../../../shared/transcript';
import { CompletedPlanUndo } from './CompletedPlanUndo';

const STATUS_TEXT: Record<PlanCompletionItem['completion']['status'], string> = {
  success: 'Plan completed',
  partial_success: 'Plan partly completed',
  failed: 'Plan failed',
};

/** complete_plan's summary: stays in the chat after the panel hides (design.md §5). */
export function PlanCompletionCard({ item }: { item: PlanCompletionItem }) {
  const { completion, counts } = item;
  return (
    <section className={`plan-done plan-done--${completion.status}`} aria-label={STATUS_TEXT[completion.status]}>
      <h3 className="plan-done-title">{STATUS_TEXT[completion.status]}</h3>
      <p className="plan-done-goal">{item.goal}</p>
      <p>{completion.summary}</p>
      <p className="plan-done-counts">
        {counts.completed}/{counts.total} steps completed
        {counts.failed > 0 && `, ${counts.failed} failed`}
        {counts.skipped > 0 && `, ${counts.skipped} skipped`}
      </p>
      {completion.issues.length > 0 && (
        <>
          <h4>Issues</h4>
          <ul>
            {completion.issues.map((issue, i) => (
              <li key={i}>{issue}</li>
            ))}
          </ul>
        </>
      )}
      {completion.recommendations && (
        <>
          <h4>Recommendations</h4>
          <p>{completion.recommendations}</p>
        </>
      )}
      <CompletedPlanUndo itemId={item.id} />
    </section>
  );
}
