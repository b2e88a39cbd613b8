/**
 * What the progress counter shows: the main questions only. Practice questions come first and are counted apart
 * ("Practice 1 of 1"), so "1 of 9" is the first question that counts.
 */
export function progressOf(
  p: { answered: number; total: number; practiceTotal: number },
  onPractice: boolean,
  done: boolean,
): { label: string; answered: number; total: number } {
  const total = Math.max(0, p.total - p.practiceTotal);
  const answered = Math.min(total, Math.max(0, p.answered - p.practiceTotal));
  if (onPractice && !done)
    return { label: `Practice ${Math.min(p.answered + 1, p.practiceTotal)} of ${p.practiceTotal}`, answered, total };
  return { label: `${done ? answered : Math.min(answered + 1, total)} of ${total}`, answered, total };
}
