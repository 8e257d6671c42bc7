/** The `q` quantile (0..1) of the numbers `xs` (the nearest rank at or below; NaN when empty). */
export const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
/** The median of the numbers `xs`. */
export const median = (xs) => quantile(xs, 0.5);
