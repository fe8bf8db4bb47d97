/**
 * The sign of a decimal string, read from its text (money never becomes a JS number here):
 * "-80.000000" is negative, "0.000000" (or "-0.000000") zero, anything else positive.
 */
export function signOf(amount: string): 'negative' | 'zero' | 'positive' {
  if (/^[+-]?0*(\.0*)?$/.test(amount)) return 'zero';
  return amount.startsWith('-') ? 'negative' : 'positive';
}

/**
 * A signed amount as the server sent it, with its sign always written out ("+80.000000",
 * "-80.000000") and styled by sign: a loss stands out from a gain. Always left to right, so the
 * sign stays in front of the number in Arabic too.
 */
export function Signed({ amount, testId }: { amount: string; testId?: string }) {
  const sign = signOf(amount);
  const text = sign === 'positive' && !amount.startsWith('+') ? `+${amount}` : amount;
  return (
    <span className={`signed signed-${sign}`} dir="ltr" data-testid={testId}>
      {text}
    </span>
  );
}
