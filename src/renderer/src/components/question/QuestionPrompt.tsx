import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { QuestionRequest } from '../../../../shared/prompts';
import type { ActionResult } from '../../store/types';
import { PromptDialog } from '../prompt/PromptDialog';
import './question.css';

interface Props {
  request: QuestionRequest;
  onAnswer(answer: string): Promise<ActionResult>;
}

/**
 * Claude's question (ask_user, docs/contract.md §5): an alertdialog named "Claude asks: …" with one
 * button per option (named exactly as the option) and, when typed answers are taken, "Your
 * answer" and "Send answer". The answer goes back to Claude word for word. Stop (the composer's)
 * cancels it. Ctrl/⌘+Enter in the box sends.
 */
export function QuestionPrompt({ request, onAnswer }: Props) {
  const id = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const typed = request.allowText || request.options.length === 0;

  const answer = async (value: string) => {
    setBusy(true);
    setProblem(null);
    const result = await onAnswer(value);
    setBusy(false);
    if (!result.ok) setProblem(result.message);
  };
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim()) {
      setProblem(request.options.length ? 'Type an answer, or pick one of the options.' : 'Type an answer first.');
      return;
    }
    void answer(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send();
  };

  return (
    <PromptDialog requestId={request.id} agent={request.agent} className="prompt-card question" labelledBy={`${id}-q`} describedBy={`${id}-how`}>
      <h2 id={`${id}-q`} className="question-title">
        Claude asks: {request.question}
      </h2>
      <p id={`${id}-how`} className="question-how">
        {request.options.length ? (typed ? 'Pick an answer or write your own.' : 'Pick an answer.') : 'Write your answer.'} Claude waits until you
        answer; Stop cancels the question.
      </p>
      {request.options.length > 0 && (
        <div className="question-options">
          {request.options.map((option) => (
            <button key={option} type="button" className="btn" disabled={busy} onClick={() => void answer(option)}>
              {option}
            </button>
          ))}
        </div>
      )}
      {typed && (
        <form className="question-form" onSubmit={send}>
          <label htmlFor={`${id}-answer`} className="question-label">
            Your answer
          </label>
          <textarea
            id={`${id}-answer`}
            value={text}
            rows={2}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={busy}
          />
          <div className="question-actions">
            <button type="submit" className="btn btn--primary" disabled={busy}>
              Send answer
            </button>
          </div>
        </form>
      )}
      {problem && (
        <p id={`${id}-problem`} className="question-problem" role="alert">
          {problem}
        </p>
      )}
    </PromptDialog>
  );
}
